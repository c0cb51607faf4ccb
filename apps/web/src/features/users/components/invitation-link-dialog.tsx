import ContentCopy from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { InvitationLink } from '@sitelog/shared';
import { useId, useRef, useState } from 'react';
import { formatDateTime } from '@/lib/format-date';

/** The link as the member opens it: the server's path on this app's address. */
export const invitationUrl = (link: Pick<InvitationLink, 'path'>) =>
  new URL(link.path, window.location.origin).href;

type CopyState = 'idle' | 'copied' | 'selected';

/**
 * Copies `text` with the Clipboard API; where that is missing or refused (a page served over
 * plain HTTP from another machine, an old browser), selects the field's text and tries the
 * older copy command. Answers whether the text reached the clipboard; the field's text is
 * selected either way, so Ctrl+C finishes the job.
 */
async function copyText(text: string, field: HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, no focus): fall back to the selection.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    // Deprecated but still the only synchronous copy where the Clipboard API is unavailable.
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

interface InvitationLinkDialogProps {
  /** The link to show; the dialog is open while there is one. */
  link: InvitationLink | null;
  onClose: () => void;
}

/**
 * Shows a new invitation link once (the server keeps only its hash, so it can never be shown
 * again): who it is for, until when it works, the link in a read-only field and COPY LINK. A
 * click beside it does not close it (the link would be lost); DONE or Escape do. The focus is
 * the caller's to place after it closes (the button that opened it was busy, so disabled, while
 * the link was made, and the browser's focus left it).
 */
export function InvitationLinkDialog({ link, onClose }: InvitationLinkDialogProps) {
  const titleId = useId();
  const textId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');
  const [shown, setShown] = useState<InvitationLink | null>(link);
  // A new link resets the copy state; the last one stays drawn while the dialog fades out.
  if (link && link !== shown) {
    setShown(link);
    setCopy('idle');
  }
  const current = link ?? shown;
  if (!current) return null;
  const url = invitationUrl(current);
  const name = `${current.user.firstname} ${current.user.lastname}`;

  const onCopy = () => {
    void copyText(url, field.current).then((copied) => setCopy(copied ? 'copied' : 'selected'));
  };

  return (
    <Dialog
      open={link !== null}
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      disableRestoreFocus
      aria-labelledby={titleId}
      aria-describedby={textId}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        Invitation link for {name}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography id={textId} color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            Send this link to {current.user.firstname} ({current.user.email}), by email or chat.
            With it they choose their own password and are signed in. It works once, until{' '}
            {formatDateTime(current.expiresAt)}.
          </Typography>
          <TextField
            label="Invitation link"
            value={url}
            inputRef={field}
            fullWidth
            multiline
            onFocus={(event) => event.target.select()}
            slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
            sx={{ '& textarea': { fontFamily: 'monospace', wordBreak: 'break-all' } }}
          />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
          >
            <Button
              variant="contained"
              startIcon={<ContentCopy />}
              onClick={onCopy}
              sx={{ flexShrink: 0 }}
            >
              Copy link
            </Button>
            <Typography role="status" variant="body2" color="text.secondary">
              {copy === 'copied' ? 'Link copied.' : null}
              {copy === 'selected'
                ? 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.'
                : null}
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            This link is shown only now. If it gets lost, make a new one with New link in the list:
            the old one then stops working.
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </Dialog>
  );
}
