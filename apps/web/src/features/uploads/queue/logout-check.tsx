import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useRef, useState, type ReactNode } from 'react';
import { formatBytes } from './format-bytes';
import { clearQueueForLogout } from './runtime';
import { getSession } from '@/lib/session';
import { userPhotos } from './queue-db';
import { isUnsaved } from './upload-queue';

export interface QueueLogoutCheck {
  /** Resolves true to go on with the logout: nothing waits, or the user chose to discard it. */
  confirm: () => Promise<boolean>;
  /** After the logout: the user's queue, its text and stored session leave the device. */
  clear: (userId: number) => Promise<void>;
  dialog: ReactNode;
}

/**
 * Logout with photos still on the device asks first: logging out deletes them here, and they
 * have not reached the server.
 */
export function useQueueLogoutCheck(): QueueLogoutCheck {
  const [open, setOpen] = useState(false);
  const [waiting, setWaiting] = useState({ count: 0, bytes: 0 });
  const answer = useRef<((proceed: boolean) => void) | null>(null);
  const titleId = useId();
  const textId = useId();

  const close = (proceed: boolean) => {
    setOpen(false);
    answer.current?.(proceed);
    answer.current = null;
  };

  // Read from the device, not from what this page has loaded so far (the queue may still be
  // reading it): nothing unsent is deleted without asking.
  const confirm = async () => {
    const userId = getSession()?.user.id;
    const left = userId === undefined ? [] : (await userPhotos(userId)).filter(isUnsaved);
    if (left.length === 0) return true;
    setWaiting({
      count: left.length,
      bytes: left.reduce((sum, p) => sum + (p.file ? p.size : 0), 0),
    });
    setOpen(true);
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
    });
  };

  const count = `${waiting.count} ${waiting.count === 1 ? 'photo is' : 'photos are'}`;
  const dialog = (
    <Dialog
      open={open}
      onClose={() => close(false)}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>Photos are still waiting to be sent</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {count} still on this device ({formatBytes(waiting.bytes)}): not on the server yet, or
          with a name or description not saved yet. Logging out deletes them from this device. Stay
          signed in until they are sent, or log out and discard them.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(false)} autoFocus>
          Stay signed in
        </Button>
        <Button color="error" onClick={() => close(true)}>
          Log out and discard
        </Button>
      </DialogActions>
    </Dialog>
  );
  return { confirm, clear: clearQueueForLogout, dialog };
}
