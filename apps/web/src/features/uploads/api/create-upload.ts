import { uploadSchema, type CreateUploadDto } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadMultipart, type UploadProgress } from '@/lib/api-client';
import { uploadKeys } from './keys';
import { refreshAfterUploadChange } from './refresh';

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

export const useCreateUpload = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUpload,
    onSuccess: (upload) => {
      queryClient.setQueryData(uploadKeys.detail(upload.id), upload);
      void refreshAfterUploadChange(queryClient);
    },
  });
};
