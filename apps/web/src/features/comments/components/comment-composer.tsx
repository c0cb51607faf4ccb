import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import {
  commentLimits,
  type Comment,
  type CommentRequest,
  type MentionCandidate,
} from '@sitelog/shared';
import { useRef, useState, type Ref } from 'react';
import { useCharacterLimit } from '@/components/character-limit';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useOnline } from '@/lib/use-online';
import { useAddComment } from '../api/add-comment';
import { addPick, pickedIds } from '../mention-query';
import { MentionField } from './mention-field';

/** "Ctrl+Enter", or "⌘+Enter" on a Mac (what the shortcut is on this keyboard). */
export function sendShortcut(): string {
  const platform =
    typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/i.test(platform) ? '⌘+Enter' : 'Ctrl+Enter';
}

/** Whether `text` may be sent: something besides white space, within the limit. */
export const canSendText = (text: string) =>
  text.trim() !== '' && text.trim().length <= commentLimits.bodyMax;

/** A comment request: the text, and the members picked in the `@` list that it still names. */
export function commentRequest(text: string, picked: readonly MentionCandidate[]): CommentRequest {
  const mentions = pickedIds(text, picked);
  return mentions.length > 0 ? { body: text, mentions } : { body: text };
}

/**
 * The field under a thread: write, mention with `@`, send (the button or Ctrl/⌘+Enter). The text
 * stays until the server has stored it, and words typed meanwhile stay after it: a failure shows
 * its message and keeps every word, and offline the button waits for the connection. The members
 * picked in the `@` list go with the text (they tell apart two members with the same name).
 */
export function CommentComposer({
  uploadId,
  invalidate,
  inputRef,
}: {
  uploadId: number;
  /** What else shows this photo's comments (its count on tiles), refreshed after a comment. */
  invalidate?: ExtraInvalidations<Comment, CommentRequest>;
  inputRef?: Ref<HTMLTextAreaElement>;
}) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<MentionCandidate[]>([]);
  const add = useAddComment(uploadId, { invalidate });
  const online = useOnline();
  const limit = useCharacterLimit(
    text,
    commentLimits.bodyMax,
    'A comment',
    `Type @ to mention someone. ${sendShortcut()} sends.`,
  );
  const ready = canSendText(text) && online;

  /** The field's text as last typed, for an answer that arrives after more was typed. */
  const typed = useRef('');
  const change = (next: string) => {
    typed.current = next;
    setText(next);
  };

  const send = () => {
    if (!ready || add.isPending) return;
    const sent = text;
    add.mutate(commentRequest(sent, picked), {
      onSuccess: () => {
        // The field stays editable while the comment is on its way: what was typed meanwhile
        // stays (after the sent text, only the new words; the whole text if the sent part was
        // changed), to be sent next.
        const now = typed.current;
        const left = now.startsWith(sent) ? now.slice(sent.length).trimStart() : now;
        change(left);
        if (left === '') setPicked([]);
      },
    });
  };

  return (
    <Box
      component="form"
      noValidate
      aria-label="Write a comment"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Stack spacing={1.5}>
        <MentionField
          label="Comment"
          placeholder="Write a comment…"
          value={text}
          onChange={(next) => {
            change(next);
            if (add.isError) add.reset();
          }}
          onSubmit={send}
          onPick={(person) => setPicked((list) => addPick(list, person))}
          error={limit.error}
          helperText={limit.helperText}
          minRows={2}
          inputRef={inputRef}
        />
        {limit.status}
        {add.isError ? (
          <Alert severity="error" role="alert">
            {errorMessage(add.error)} Your comment is still here.
          </Alert>
        ) : null}
        {!online ? (
          <Alert severity="info" data-offline-note>
            You are offline. Your comment stays here; send it when the connection returns.
          </Alert>
        ) : null}
        <Box>
          <Button
            type="submit"
            variant="contained"
            startIcon={<SendOutlined />}
            loading={add.isPending}
            loadingPosition="start"
            disabled={!ready}
          >
            Send
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
