import { commentSchema, type Comment, type CommentRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { commentKeys } from './keys';

/** POST /api/upload/{id}/comments with `{ body, mentions? }`: answers the new comment (201). */
export const addComment = (uploadId: number, body: CommentRequest) =>
  api.post(`/api/upload/${uploadId}/comments`, commentSchema, body);

/**
 * Comments on a photo. Once it is stored the thread is refreshed (the caller waits for it, so the
 * comment is on screen when the field empties), and so is whatever else the page names: the
 * photo's comment count on its tiles, say.
 */
export const useAddComment = (
  uploadId: number,
  { invalidate }: { invalidate?: ExtraInvalidations<Comment, CommentRequest> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommentRequest) => addComment(uploadId, body),
    onSuccess: async (comment, body) => {
      void invalidateKeys(queryClient, extraKeys(invalidate, comment, body));
      await queryClient.invalidateQueries({ queryKey: commentKeys.thread(uploadId) });
    },
  });
};
