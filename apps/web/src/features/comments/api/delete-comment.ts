import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { commentKeys } from './keys';

/** DELETE /api/comment/{id}: the author or an admin removes it; 204, no body. */
export const deleteComment = (id: number) => api.delete(`/api/comment/${id}`, z.undefined());

/**
 * Deletes a comment of a photo; the thread is refreshed (waited for, so the comment is gone when
 * the dialog closes), and so is whatever else the page names (the photo's count on its tiles).
 */
export const useDeleteComment = (
  uploadId: number,
  { invalidate }: { invalidate?: ExtraInvalidations<undefined, number> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteComment(id),
    onSuccess: async (_data, id) => {
      void invalidateKeys(queryClient, extraKeys(invalidate, undefined, id));
      await queryClient.invalidateQueries({ queryKey: commentKeys.thread(uploadId) });
    },
  });
};
