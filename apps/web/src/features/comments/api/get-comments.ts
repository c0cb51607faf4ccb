import { commentPageSchema, type Comment, type CommentPage } from '@sitelog/shared';
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { commentKeys } from './keys';

/** GET /api/upload/{id}/comments: a page of the thread, oldest first, after the comment `after`. */
export const getComments = (uploadId: number, after: number | undefined, signal?: AbortSignal) =>
  api.get(
    `/api/upload/${uploadId}/comments${after === undefined ? '' : `?after=${after}`}`,
    commentPageSchema,
    { signal },
  );

/** What the thread shows: every comment loaded so far, and the thread's total. */
export interface CommentThreadData {
  comments: Comment[];
  count: number;
}

/**
 * A photo's thread as an infinite query: the first page holds the oldest comments, each next page
 * the ones after the last loaded (keyset `next`). The pages read as one list.
 */
export const commentThreadOptions = (uploadId: number) =>
  infiniteQueryOptions({
    queryKey: commentKeys.thread(uploadId),
    queryFn: ({ pageParam, signal }) => getComments(uploadId, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: CommentPage) => last.next ?? undefined,
    // Asked again each time the thread is shown: a notification or the bell may have brought
    // the reader here for a comment written since the thread was last loaded.
    staleTime: 0,
    select: (data: InfiniteData<CommentPage, number | undefined>): CommentThreadData => ({
      comments: data.pages.flatMap((page) => page.comments),
      // The newest page knows the latest total.
      count: data.pages[data.pages.length - 1]?.count ?? 0,
    }),
  });

export const useCommentThread = (uploadId: number) =>
  useInfiniteQuery(commentThreadOptions(uploadId));
