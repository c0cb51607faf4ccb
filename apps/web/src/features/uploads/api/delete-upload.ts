import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { uploadKeys } from './keys';

/** DELETE /api/upload/delete/{id}: removes the upload and its files (creator only). */
export const deleteUpload = (id: number) => api.delete(`/api/upload/delete/${id}`, z.unknown());

/**
 * Deletes an upload: its cache entry goes, every upload list is refreshed, and so is whatever
 * else the caller names (the project's count and cover, the member's count).
 */
export const useDeleteUpload = (
  id: number,
  { invalidate }: { invalidate?: ExtraInvalidations<unknown, void> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteUpload(id),
    onSuccess: (response) => {
      // Nothing may refetch the upload that is gone; the page moving away no longer needs it.
      void queryClient.cancelQueries({ queryKey: uploadKeys.detail(id) });
      queryClient.removeQueries({ queryKey: uploadKeys.detail(id) });
      void invalidateKeys(queryClient, [
        uploadKeys.lists(),
        ...extraKeys(invalidate, response, undefined),
      ]);
    },
  });
};
