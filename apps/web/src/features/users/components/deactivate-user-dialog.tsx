import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { User } from '@sitelog/shared';
import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useDeactivateUser } from '../api/deactivate-user';

interface DeactivateUserDialogProps {
  /** Whom to deactivate; the dialog is open while there is someone. */
  user: User | null;
  /**
   * Called when the dialog closes. The dialog does not put the focus back itself (the button
   * that opened it is gone after a deactivation): the list moves it to the row's new action.
   */
  onClose: () => void;
}

/**
 * Asks before deactivating a member, naming them and saying what happens: their sessions end and
 * they cannot sign in, while what they made stays. DEACTIVATE sends the call; a refusal is shown
 * in the dialog, which stays open. Cancel, Escape or a click outside close it while nothing is
 * being sent.
 */
export function DeactivateUserDialog({ user, onClose }: DeactivateUserDialogProps) {
  const titleId = useId();
  const textId = useId();
  const deactivate = useDeactivateUser();
  const [shown, setShown] = useState<User | null>(user);
  // The last person stays drawn while the dialog fades out.
  if (user && user !== shown) setShown(user);
  const current = user ?? shown;

  const close = () => {
    if (deactivate.isPending) return;
    deactivate.reset();
    onClose();
  };
  const confirm = () => {
    if (!current || deactivate.isPending) return;
    deactivate.mutate(current.id, {
      onSuccess: () => {
        deactivate.reset();
        onClose();
      },
    });
  };

  if (!current) return null;
  const name = `${current.firstname} ${current.lastname}`;
  return (
    <Dialog
      open={user !== null}
      onClose={close}
      aria-labelledby={titleId}
      aria-describedby={textId}
      disableRestoreFocus
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        Deactivate {name}?
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          They are signed out everywhere and can no longer sign in. Their projects, photos and
          comments stay.
          {current.invitePending ? ' Their invitation link stops working.' : null}
        </DialogContentText>
        {deactivate.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(deactivate.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={deactivate.isPending}>
          Cancel
        </Button>
        <Button color="error" variant="contained" onClick={confirm} loading={deactivate.isPending}>
          Deactivate
        </Button>
      </DialogActions>
    </Dialog>
  );
}
