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
import { useOnline } from '@/lib/use-online';
import { useDeleteReport } from '../api/delete-report';
import { isRefusal } from './regenerate-report-dialog';

/**
 * Asks before a report is deleted (by its author or an admin), naming it. Cancel and Escape
 * always close it; offline it is not sent; a refusal (409: its project archived) disables it.
 */
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
  const online = useOnline();
  const titleId = useId();
  const textId = useId();
  // Never held open: a request on its way is forgotten here (its answer still refreshes the views).
  const close = () => {
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
        {!online ? (
          <Alert severity="info" sx={{ mt: 2 }} data-offline-note>
            You are offline: the report can be deleted when the connection returns.
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          color="error"
          variant="contained"
          loading={remove.isPending}
          disabled={!online || (remove.isError && isRefusal(remove.error))}
          onClick={() => remove.mutate(report.id, { onSuccess: onDeleted })}
        >
          Delete report
        </Button>
      </DialogActions>
    </Dialog>
  );
}
