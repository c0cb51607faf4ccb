import { uploadSchema, type UpdateUploadRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { uploadKeys } from './keys';
import { refreshAfterUploadChange } from './refresh';

/** The spec does not show what the update answers; the upload is used when it is one. */
const updateResponseSchema = z.unknown();

/** PATCH /api/upload/update/no-image/{id} with `{upload:{name, description, projectId}}`. */
export const updateUpload = (id: number, body: UpdateUploadRequest) =>
  api.patch(`/api/upload/update/no-image/${id}`, updateResponseSchema, body);

export const useUpdateUpload = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUploadRequest) => updateUpload(id, body),
    onSuccess: async (response) => {
      const updated = uploadSchema.safeParse(response);
      if (updated.success) queryClient.setQueryData(uploadKeys.detail(id), updated.data);
      void refreshAfterUploadChange(queryClient);
      // The page shows the saved text as the new starting point, so wait for it.
      if (!updated.success)
        await queryClient.invalidateQueries({ queryKey: uploadKeys.detail(id) });
    },
  });
};
