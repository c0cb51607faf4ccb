import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/** DELETE /api/report/link/{id}: the link stops working at once (it stays listed, revoked); 204. */
export const revokeReportLink = (linkId: number) =>
  api.delete(`/api/report/link/${linkId}`, z.undefined());

/** Revokes one of a report's public links; its list is refreshed (waited for, so it shows). */
export const useRevokeReportLink = (reportId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeReportLink,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportKeys.links(reportId) }),
  });
};
