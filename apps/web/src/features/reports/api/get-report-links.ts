import { reportLinkListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';
import { refreshAfterRefusal } from './refresh-after-refusal';

/** GET /api/report/{id}/links: the report's public links, live and past (the author or an admin). */
export const getReportLinks = (reportId: number, signal?: AbortSignal) =>
  api.get(`/api/report/${reportId}/links`, reportLinkListSchema, { signal });

/** The links; a 404 (the report deleted elsewhere) has the report asked again, so its page says so. */
export const reportLinksQueryOptions = (reportId: number) =>
  queryOptions({
    queryKey: reportKeys.links(reportId),
    queryFn: async ({ signal, client }) => {
      try {
        return await getReportLinks(reportId, signal);
      } catch (error) {
        refreshAfterRefusal(client, reportId, error);
        throw error;
      }
    },
  });

export const useReportLinks = (reportId: number, enabled = true) =>
  useQuery({ ...reportLinksQueryOptions(reportId), enabled });
