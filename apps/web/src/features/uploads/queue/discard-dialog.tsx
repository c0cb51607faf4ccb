import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState } from 'react';
import { uploadQueue } from './runtime';
import type { QueuedPhoto } from './queue-db';

/** DISCARD of a queued photo, after asking: it has not reached the server and will be lost. */
export function DiscardButton({ photo, label }: { photo: QueuedPhoto; label: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const textId = useId();
  const discard = async () => {
    setBusy(true);
    try {
      await uploadQueue.discard(photo.clientId);
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <Button size="small" color="error" onClick={() => setOpen(true)} aria-label={label}>
        Discard
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby={titleId}
        aria-describedby={textId}
      >
        <DialogTitle id={titleId}>Discard this photo?</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            {photo.fileName} has not reached the server. Discarding deletes it from this device; it
            cannot be recovered.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} autoFocus>
            Keep it
          </Button>
          <Button color="error" onClick={() => void discard()} loading={busy}>
            Discard
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
