import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useRef, useState, type ReactNode } from 'react';
import { formatBytes } from './format-bytes';
import { clearQueueForLogout } from './runtime';
import { usePendingPhotos } from './use-upload-queue';

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
  const { photos, bytes } = usePendingPhotos();
  const [open, setOpen] = useState(false);
  const answer = useRef<((proceed: boolean) => void) | null>(null);
  const titleId = useId();
  const textId = useId();

  const close = (proceed: boolean) => {
    setOpen(false);
    answer.current?.(proceed);
    answer.current = null;
  };

  const confirm = () => {
    if (photos.length === 0) return Promise.resolve(true);
    setOpen(true);
    return new Promise<boolean>((resolve) => {
      answer.current = resolve;
    });
  };

  const count = `${photos.length} ${photos.length === 1 ? 'photo is' : 'photos are'}`;
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
          {count} still on this device ({formatBytes(bytes)}) and not on the server yet. Logging out
          deletes them from this device. Stay signed in until they are sent, or log out and discard
          them.
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
