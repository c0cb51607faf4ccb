import { reportDetailSchema, type CreateReportRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import type { ReportDetail } from '@sitelog/shared';
import { reportKeys } from './keys';

/**
 * POST /api/report: a report of the project's photos in the order given. The server answers 202
 * with the report `queued`; the PDF is made off the request path (the report page polls it).
 */
export const createReport = (body: CreateReportRequest) =>
  api.post('/api/report', reportDetailSchema, body);

/**
 * Creates a report: its answer becomes the report's cache entry (the report page opens on it
 * without asking again) and every report list is refreshed, plus what the caller names.
 */
export const useCreateReport = ({
  invalidate,
}: { invalidate?: ExtraInvalidations<ReportDetail, CreateReportRequest> } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReport,
    onSuccess: (report, body) => {
      queryClient.setQueryData(reportKeys.detail(report.id), report);
      void invalidateKeys(queryClient, [
        reportKeys.lists(),
        ...extraKeys(invalidate, report, body),
      ]);
    },
  });
};
