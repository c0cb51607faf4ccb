import { uploadSchema, type UpdateUploadRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { uploadKeys } from './keys';

/** The spec does not show what the update answers; the upload is used when it is one. */
const updateResponseSchema = z.unknown();

/**
 * PATCH /api/upload/update/no-image/{id} with `{upload:{name, description, projectId}}`, and
 * `tags` (the whole new list) when they changed.
 */
export const updateUpload = (id: number, body: UpdateUploadRequest) =>
  api.patch(`/api/upload/update/no-image/${id}`, updateResponseSchema, body);

/**
 * Saves an upload's text (or moves it): the upload and every upload list are refreshed, and so is
 * whatever else the caller names (the projects it left and joined, say).
 */
export const useUpdateUpload = (
  id: number,
  { invalidate }: { invalidate?: ExtraInvalidations<unknown, UpdateUploadRequest> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUploadRequest) => updateUpload(id, body),
    onSuccess: async (response, body) => {
      const updated = uploadSchema.safeParse(response);
      if (updated.success) queryClient.setQueryData(uploadKeys.detail(id), updated.data);
      void invalidateKeys(queryClient, [
        uploadKeys.lists(),
        // New tags count in the suggestions, removed ones no more.
        ...(body.upload.tags === undefined ? [] : [uploadKeys.tags()]),
        ...extraKeys(invalidate, response, body),
      ]);
      // The page shows the saved text as the new starting point, so wait for it.
      if (!updated.success)
        await queryClient.invalidateQueries({ queryKey: uploadKeys.detail(id) });
    },
  });
};
