import { reportDetailSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isInProgress } from './get-reports';
import { reportKeys } from './keys';

/** How often a report's page asks for it while its PDF is being made. */
export const REPORT_POLL_MS = 1_000;

/** GET /api/report/{id}: the report with its intro, team name and photo list (404 unknown). */
export const getReport = (id: number, signal?: AbortSignal) =>
  api.get(`/api/report/${id}`, reportDetailSchema, { signal });

/**
 * One report, asked again every REPORT_POLL_MS while it is queued or being made (its progress
 * moves on screen), and no more once it is ready or failed. A 404 is an answer, not retried.
 */
export const reportQueryOptions = (id: number) =>
  queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: ({ signal }) => getReport(id, signal),
    refetchInterval: (query) =>
      query.state.data && isInProgress(query.state.data) ? REPORT_POLL_MS : false,
  });

export const useReport = (id: number) => useQuery(reportQueryOptions(id));
