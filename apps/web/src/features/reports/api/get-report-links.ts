import { reportLinkListSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/** GET /api/report/{id}/links: the report's public links, live and past (the author or an admin). */
export const getReportLinks = (reportId: number, signal?: AbortSignal) =>
  api.get(`/api/report/${reportId}/links`, reportLinkListSchema, { signal });

export const reportLinksQueryOptions = (reportId: number) =>
  queryOptions({
    queryKey: reportKeys.links(reportId),
    queryFn: ({ signal }) => getReportLinks(reportId, signal),
  });

export const useReportLinks = (reportId: number, enabled = true) =>
  useQuery({ ...reportLinksQueryOptions(reportId), enabled });
