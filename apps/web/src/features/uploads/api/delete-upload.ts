import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';
import { refreshAfterUploadChange } from './refresh';

/** DELETE /api/upload/delete/{id}: removes the upload and its files (creator only). */
export const deleteUpload = (id: number) => api.delete(`/api/upload/delete/${id}`, z.unknown());

export const useDeleteUpload = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteUpload(id),
    onSuccess: () => {
      // Nothing may refetch the upload that is gone; the page moving away no longer needs it.
      void queryClient.cancelQueries({ queryKey: uploadKeys.detail(id) });
      queryClient.removeQueries({ queryKey: uploadKeys.detail(id) });
      void refreshAfterUploadChange(queryClient);
    },
  });
};
