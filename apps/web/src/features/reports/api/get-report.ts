import { reportDetailSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isNotFound } from '@/lib/is-not-found';
import { isInProgress } from './get-reports';
import { reportKeys } from './keys';

/** How often a report's page asks for it while its PDF is being made. */
export const REPORT_POLL_MS = 1_000;

/** GET /api/report/{id}: the report with its intro, team name and photo list (404 unknown). */
export const getReport = (id: number, signal?: AbortSignal) =>
  api.get(`/api/report/${id}`, reportDetailSchema, { signal });

/**
 * One report, asked again every REPORT_POLL_MS while it is queued or being made (its progress
 * moves on screen), and no more once it is ready or failed, nor after a failed ask (its retries
 * spent): a report deleted elsewhere answers 404 (the page says it is gone), and another failure
 * is shown with RETRY rather than asked about every second. A 404 is an answer, not retried.
 */
export const reportQueryOptions = (id: number) =>
  queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: async ({ signal, client }) => {
      try {
        return await getReport(id, signal);
      } catch (error) {
        // Deleted elsewhere: the lists that still show it are asked again too.
        if (isNotFound(error)) void client.invalidateQueries({ queryKey: reportKeys.lists() });
        throw error;
      }
    },
    refetchInterval: (query) =>
      query.state.status !== 'error' && query.state.data && isInProgress(query.state.data)
        ? REPORT_POLL_MS
        : false,
  });

export const useReport = (id: number) => useQuery(reportQueryOptions(id));
