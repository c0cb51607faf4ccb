import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Upload } from '@sitelog/shared';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useDeleteUpload } from '../api/delete-upload';
import { uploadDisplayName } from './upload-tiles';

/**
 * DELETE with a confirmation; once the upload is gone the user is back on its project's page
 * (spec §4). Render it for the creator only.
 */
export function DeleteUploadButton({
  upload,
  disabled = false,
  invalidate,
}: {
  upload: Pick<Upload, 'id' | 'name' | 'project'>;
  disabled?: boolean;
  /** What other features show about this upload, refreshed once it is gone (the page knows). */
  invalidate?: ExtraInvalidations;
}) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteUpload(upload.id, { invalidate });
  const navigate = useNavigate();
  const titleId = useId();
  const textId = useId();

  const close = () => {
    if (remove.isPending) return;
    setOpen(false);
    remove.reset();
  };

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => void navigate(paths.project(upload.project.id), { replace: true }),
    });

  return (
    <>
      <Button
        color="error"
        variant="outlined"
        startIcon={<DeleteOutline />}
        onClick={() => setOpen(true)}
        disabled={disabled}
      >
        Delete
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} aria-describedby={textId}>
        <DialogTitle id={titleId}>Delete this photo?</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            “{uploadDisplayName(upload)}” will be removed from {upload.project.name} for everyone,
            with its original file. This cannot be undone.
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
          <Button color="error" variant="contained" onClick={confirm} loading={remove.isPending}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
