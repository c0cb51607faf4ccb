import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { useCommentThread } from '../api/get-comments';
import { CommentComposer } from './comment-composer';
import { CommentItem } from './comment-item';

/** Rows in the shape of comments while the thread loads. */
function ThreadSkeleton() {
  return (
    <OfflineFallback>
      <Stack role="status" aria-label="Loading comments…" spacing={2}>
        {[70, 45].map((width) => (
          <Box key={width} sx={{ display: 'flex', gap: 1.5 }}>
            <Skeleton variant="circular" width={36} height={36} sx={{ flex: 'none' }} />
            <Box sx={{ flex: 1 }}>
              <Typography variant="body2">
                <Skeleton sx={{ width: '30%' }} />
              </Typography>
              <Typography variant="body2">
                <Skeleton sx={{ width: `${width}%` }} />
              </Typography>
            </Box>
          </Box>
        ))}
      </Stack>
    </OfflineFallback>
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A photo's conversation (issue 15), under the photo: the comments oldest first, with more
 * loaded on request, and the field to write one; read-only (no field, no edit or delete) while
 * the photo's project is archived.
 */
export function CommentThread({
  uploadId,
  readOnly = false,
  invalidate = [],
  onLoaded,
}: {
  uploadId: number;
  readOnly?: boolean;
  /**
   * What else shows this photo's comment count (its tiles, the photo itself), refreshed when a
   * comment is added or deleted. The page knows.
   */
  invalidate?: readonly QueryKey[];
  /** Called once, when the comments are first on screen (a link to them scrolls there then). */
  onLoaded?: () => void;
}) {
  const thread = useCommentThread(uploadId);
  const composer = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const loadedOnce = useRef(false);
  const loaded = thread.isSuccess;
  useEffect(() => {
    if (!loaded || loadedOnce.current) return;
    loadedOnce.current = true;
    onLoaded?.();
  }, [loaded, onLoaded]);

  if (thread.isPending) return <ThreadSkeleton />;
  if (thread.isLoadingError)
    return (
      <ErrorState
        title="The comments could not be loaded."
        error={thread.error}
        onRetry={() => void thread.refetch()}
        retrying={thread.isRefetching}
      />
    );

  const { comments, count } = thread.data;
  const more = count - comments.length;
  // Focus goes where it can still be: the field, or the list when there is none.
  const afterDelete = () =>
    requestAnimationFrame(() => (composer.current ?? list.current)?.focus());

  return (
    <Stack spacing={3}>
      {comments.length === 0 ? (
        <Stack
          direction="row"
          spacing={1.5}
          sx={{ alignItems: 'center', color: 'text.secondary' }}
          data-comments-empty
        >
          <ChatBubbleOutline aria-hidden />
          <Typography variant="body2">
            No comments yet.
            {readOnly ? '' : ' Ask a question or note what the photo shows; @ mentions a teammate.'}
          </Typography>
        </Stack>
      ) : (
        <Box
          component="ol"
          ref={list}
          tabIndex={-1}
          aria-label={plural(count, 'comment')}
          sx={{
            listStyle: 'none',
            m: 0,
            p: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 2.5,
            '&:focus': { outline: 'none' },
          }}
        >
          {comments.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              onDeleted={afterDelete}
              invalidateOnDelete={invalidate}
            />
          ))}
        </Box>
      )}
      {thread.hasNextPage ? (
        <Box>
          {thread.isFetchNextPageError ? (
            <Box sx={{ mb: 1.5 }}>
              <ErrorState error={thread.error} />
            </Box>
          ) : null}
          <Button
            variant="outlined"
            onClick={() => void thread.fetchNextPage()}
            loading={thread.isFetchingNextPage}
          >
            Show {more > 0 ? plural(more, 'more comment') : 'more comments'}
          </Button>
        </Box>
      ) : null}
      {readOnly ? (
        <Typography variant="body2" color="text.secondary">
          This project is archived: its comments are read-only.
        </Typography>
      ) : (
        <CommentComposer uploadId={uploadId} invalidate={invalidate} inputRef={composer} />
      )}
    </Stack>
  );
}
