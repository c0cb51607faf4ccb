import { reportDetailSchema, type ReportDetail } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { reportKeys } from './keys';
import { refreshAfterRefusal, sendNow } from './refresh-after-refusal';

/**
 * POST /api/report/{id}/regenerate: the author or an admin has the PDF made again from the
 * photos still there (202, the report queued; 409 while one runs). The PDF made before stays
 * downloadable until the new one is ready.
 */
export const regenerateReport = (id: number) =>
  api.post(`/api/report/${id}/regenerate`, reportDetailSchema);

/**
 * Re-generates a report: its page shows the answer (queued) at once and polls from there, and
 * every list is refreshed (and polls while it is made), with whatever else the page names.
 */
export const useRegenerateReport = ({
  invalidate,
}: { invalidate?: ExtraInvalidations<ReportDetail, number> } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...sendNow,
    mutationFn: regenerateReport,
    onError: (error, id) => refreshAfterRefusal(queryClient, id, error),
    onSuccess: async (report, id) => {
      queryClient.setQueryData(reportKeys.detail(id), report);
      void invalidateKeys(queryClient, extraKeys(invalidate, report, id));
      await queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
    },
  });
};
