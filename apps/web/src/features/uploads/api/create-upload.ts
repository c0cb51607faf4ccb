import { uploadSchema, type CreateUploadDto, type Upload } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadMultipart, type UploadProgress } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { uploadKeys } from './keys';

export interface CreateUploadInput {
  file: File;
  dto: CreateUploadDto;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * POST /api/upload/autoupload: multipart with the `file` part first, then the JSON text part
 * `createUploadDto` (spec §7), so the server can stream the file while the form is still coming.
 */
export function createUpload({ file, dto, onProgress, signal }: CreateUploadInput) {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('createUploadDto', JSON.stringify(dto));
  return uploadMultipart('/api/upload/autoupload', form, uploadSchema, { onProgress, signal });
}

/**
 * Adds an upload: it is cached for the editor that opens next, every upload list is refreshed,
 * and so is whatever else the caller names (the project's count and cover, the member's count).
 */
export const useCreateUpload = ({
  invalidate,
}: { invalidate?: ExtraInvalidations<Upload, CreateUploadInput> } = {}) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUpload,
    onSuccess: (upload, input) => {
      queryClient.setQueryData(uploadKeys.detail(upload.id), upload);
      void invalidateKeys(queryClient, [
        uploadKeys.lists(),
        ...extraKeys(invalidate, upload, input),
      ]);
    },
  });
};
