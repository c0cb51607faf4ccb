import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';
import { refreshAfterRefusal, sendNow } from './refresh-after-refusal';

/** DELETE /api/report/link/{id}: the link stops working at once (it stays listed, revoked); 204. */
export const revokeReportLink = (linkId: number) =>
  api.delete(`/api/report/link/${linkId}`, z.undefined());

/** Revokes one of a report's public links; its list is refreshed (waited for, so it shows). */
export const useRevokeReportLink = (reportId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...sendNow,
    mutationFn: revokeReportLink,
    // A 404 may be the report deleted elsewhere (or only the link): both are asked again.
    onError: (error) => {
      refreshAfterRefusal(queryClient, reportId, error);
      void queryClient.invalidateQueries({ queryKey: reportKeys.links(reportId) });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.links(reportId) }),
  });
};
