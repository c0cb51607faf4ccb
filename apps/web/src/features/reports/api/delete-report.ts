import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { reportKeys } from './keys';
import { refreshAfterRefusal, sendNow } from './refresh-after-refusal';

/** DELETE /api/report/{id}: the author or an admin removes it, its PDF and its links; 204. */
export const deleteReport = (id: number) => api.delete(`/api/report/${id}`, z.undefined());

/**
 * Deletes a report: its own entries are dropped (its page is left, nothing should ask for it
 * again) and every list is refreshed, with whatever else the page names (the notifications
 * that named it are gone too).
 */
export const useDeleteReport = ({
  invalidate,
}: { invalidate?: ExtraInvalidations<undefined, number> } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    ...sendNow,
    mutationFn: deleteReport,
    onError: (error, id) => refreshAfterRefusal(queryClient, id, error),
    onSuccess: async (_data, id) => {
      await queryClient.cancelQueries({ queryKey: reportKeys.detail(id) });
      queryClient.removeQueries({ queryKey: reportKeys.detail(id) });
      queryClient.removeQueries({ queryKey: reportKeys.links(id) });
      void invalidateKeys(queryClient, extraKeys(invalidate, undefined, id));
      await queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
    },
  });
};
