import { commentSchema, type Comment, type CommentRequest } from '@sitelog/shared';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { CommentPage } from '@sitelog/shared';
import { api } from '@/lib/api-client';
import { commentKeys } from './keys';

/**
 * PATCH /api/comment/{id} with `{ body, mentions? }`: the author's new text; answers the comment.
 */
export const updateComment = (id: number, body: CommentRequest) =>
  api.patch(`/api/comment/${id}`, commentSchema, body);

/** Puts `comment` in place of the one with its id, in every loaded page of its thread. */
function replaceInThread(
  data: InfiniteData<CommentPage, number | undefined> | undefined,
  comment: Comment,
) {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      comments: page.comments.map((c) => (c.id === comment.id ? comment : c)),
    })),
  };
}

/** Edits one of the viewer's comments on a photo; the thread shows the answer at once. */
export const useUpdateComment = (uploadId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...request }: CommentRequest & { id: number }) => updateComment(id, request),
    onSuccess: (comment) => {
      queryClient.setQueryData<InfiniteData<CommentPage, number | undefined>>(
        commentKeys.thread(uploadId),
        (data) => replaceInThread(data, comment),
      );
    },
  });
};
