import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Comment } from '@sitelog/shared';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useDeleteComment } from '../api/delete-comment';

/** Asks before a comment is deleted (its author's, or anyone's for an admin). */
export function DeleteCommentDialog({
  comment,
  open,
  ownComment,
  onClose,
  onDeleted,
  invalidate,
}: {
  comment: Pick<Comment, 'id' | 'uploadId' | 'author'>;
  open: boolean;
  /** Whether the viewer wrote it (an admin deleting someone else's is told whose it is). */
  ownComment: boolean;
  onClose: () => void;
  onDeleted: () => void;
  invalidate?: ExtraInvalidations<undefined, number>;
}) {
  const remove = useDeleteComment(comment.uploadId, { invalidate });
  const titleId = useId();
  const textId = useId();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  const whose = ownComment
    ? 'Your comment'
    : `${comment.author.firstname} ${comment.author.lastname}’s comment`;
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>Delete this comment?</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {whose} will be removed from this photo for everyone. This cannot be undone.
        </DialogContentText>
        {remove.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(remove.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={remove.isPending}
          onClick={() => remove.mutate(comment.id, { onSuccess: onDeleted })}
        >
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
