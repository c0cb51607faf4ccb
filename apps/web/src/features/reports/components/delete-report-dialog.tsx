import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Report } from '@sitelog/shared';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useDeleteReport } from '../api/delete-report';

/** Asks before a report is deleted (by its author or an admin), naming it. */
export function DeleteReportDialog({
  report,
  open,
  onClose,
  onDeleted,
  invalidate,
}: {
  report: Pick<Report, 'id' | 'title'>;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
  invalidate?: ExtraInvalidations<undefined, number>;
}) {
  const remove = useDeleteReport({ invalidate });
  const titleId = useId();
  const textId = useId();
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        Delete “{report.title}”?
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          The report and its PDF are removed for everyone, and its public links stop working. The
          photos stay in the project. This cannot be undone.
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
          onClick={() => remove.mutate(report.id, { onSuccess: onDeleted })}
        >
          Delete report
        </Button>
      </DialogActions>
    </Dialog>
  );
}
