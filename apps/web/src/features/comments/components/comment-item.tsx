import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { commentLimits, type Comment, type MentionCandidate } from '@sitelog/shared';
import { useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useCharacterLimit } from '@/components/character-limit';
import { PersonAvatar } from '@/components/person-avatar';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useOnline } from '@/lib/use-online';
import { useUpdateComment } from '../api/update-comment';
import { formatCommentFullTime, formatCommentTime } from '../format-comment-time';
import { CommentBody } from './comment-body';
import { addPick } from '../mention-query';
import { canSendText, commentRequest, sendShortcut } from './comment-composer';
import { DeleteCommentDialog } from './delete-comment-dialog';
import { MentionField } from './mention-field';

/**
 * The author's edit of a comment, in place: Save (or Ctrl/⌘+Enter), Cancel (or Escape). The
 * members it names, and those picked in the `@` list, go with the text while it names them.
 */
function CommentEditor({
  comment,
  onDone,
}: {
  comment: Comment;
  /** Saved or cancelled: the comment shows again. */
  onDone: () => void;
}) {
  const [text, setText] = useState(comment.body);
  // The members the comment names count as picked: a name two members share stays theirs.
  const [picked, setPicked] = useState<MentionCandidate[]>(comment.mentions);
  const update = useUpdateComment(comment.uploadId);
  const online = useOnline();
  const limit = useCharacterLimit(text, commentLimits.bodyMax, 'A comment');
  const ready = canSendText(text) && online;
  const save = () => {
    if (!ready || update.isPending) return;
    if (text.trim() === comment.body) return onDone();
    update.mutate({ id: comment.id, ...commentRequest(text, picked) }, { onSuccess: onDone });
  };
  return (
    <Box
      component="form"
      noValidate
      aria-label="Edit comment"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      sx={{ mt: 1 }}
    >
      <Stack spacing={1}>
        <MentionField
          label="Edit comment"
          value={text}
          onChange={(next) => {
            setText(next);
            if (update.isError) update.reset();
          }}
          onSubmit={save}
          onPick={(person) => setPicked((list) => addPick(list, person))}
          onEscape={() => {
            if (!update.isPending) onDone();
          }}
          error={limit.error}
          helperText={limit.helperText ?? `${sendShortcut()} saves, Escape cancels.`}
          autoFocus
          minRows={2}
        />
        {limit.status}
        {update.isError ? (
          <Alert severity="error" role="alert">
            {errorMessage(update.error)} Your changes are still here.
          </Alert>
        ) : null}
        {!online ? (
          <Alert severity="info">You are offline. Save when the connection returns.</Alert>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button
            type="submit"
            variant="contained"
            size="small"
            loading={update.isPending}
            disabled={!ready}
          >
            Save
          </Button>
          <Button size="small" onClick={onDone} disabled={update.isPending}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/**
 * One comment: who (marked when deactivated), when (the exact time in its title), "edited", the
 * text, and Edit (its author) and Delete (its author or an admin) while the project is open.
 */
export function CommentItem({
  comment,
  onDeleted,
  invalidateOnDelete,
}: {
  comment: Comment;
  /** After the comment is gone (the thread moves focus somewhere that still exists). */
  onDeleted: () => void;
  invalidateOnDelete?: ExtraInvalidations<undefined, number>;
}) {
  const viewer = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const headerId = useId();
  const { author } = comment;
  const name = `${author.firstname} ${author.lastname}`;

  const stopEditing = () => {
    setEditing(false);
    // Back where the edit started, once the button is drawn again.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <Box
      component="li"
      data-comment={comment.id}
      aria-labelledby={headerId}
      sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', minWidth: 0 }}
    >
      <PersonAvatar person={author} size={36} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography
          id={headerId}
          variant="body2"
          component="p"
          sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 0.75, alignItems: 'baseline' }}
        >
          <Link
            component={RouterLink}
            to={paths.memberProfile(author.id)}
            sx={{ fontWeight: 600 }}
            underline="hover"
          >
            {name}
          </Link>
          {author.active ? null : (
            <Typography component="span" variant="caption" color="text.secondary">
              (deactivated)
            </Typography>
          )}
          <Typography component="span" variant="caption" color="text.secondary">
            <time dateTime={comment.createdAt} title={formatCommentFullTime(comment.createdAt)}>
              {formatCommentTime(comment.createdAt)}
            </time>
          </Typography>
          {comment.editedAt ? (
            <Typography
              component="span"
              variant="caption"
              color="text.secondary"
              title={`Edited ${formatCommentFullTime(comment.editedAt)}`}
              data-edited
            >
              · edited
            </Typography>
          ) : null}
        </Typography>
        {editing ? (
          <CommentEditor comment={comment} onDone={stopEditing} />
        ) : (
          <>
            <CommentBody body={comment.body} mentions={comment.mentions} />
            {comment.canEdit || comment.canDelete ? (
              <Stack direction="row" spacing={0.5} sx={{ mt: 0.25, ml: -1 }}>
                {comment.canEdit ? (
                  <Button
                    ref={editButton}
                    size="small"
                    onClick={() => setEditing(true)}
                    aria-describedby={headerId}
                  >
                    Edit
                  </Button>
                ) : null}
                {comment.canDelete ? (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setConfirming(true)}
                    aria-describedby={headerId}
                  >
                    Delete
                  </Button>
                ) : null}
              </Stack>
            ) : null}
          </>
        )}
      </Box>
      {comment.canDelete ? (
        <DeleteCommentDialog
          comment={comment}
          open={confirming}
          ownComment={author.id === viewer.id}
          onClose={() => setConfirming(false)}
          onDeleted={() => {
            setConfirming(false);
            onDeleted();
          }}
          invalidate={invalidateOnDelete}
        />
      ) : null}
    </Box>
  );
}
