import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Report, ReportDetail } from '@sitelog/shared';
import { useId } from 'react';
import { ApiError, errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useOnline } from '@/lib/use-online';
import { useRegenerateReport } from '../api/regenerate-report';
import { plural } from '../report-text';

/**
 * The server refused for a reason asking again will not change (409: the project archived,
 * photos the PDF holds deleted or moved away, none left, one running; 404: deleted elsewhere).
 */
export const isRefusal = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || error.status === 404);

/**
 * Asks before a report's PDF is made again, from the photos as they are now (their current
 * captions). It promises nothing about photos deleted or moved away since: while a PDF exists the
 * server refuses to make one without them (its 409 is shown, and the confirm button disabled);
 * without one, the photos left are made into it (said with the count when the caller knows it).
 * Cancel and Escape always close it, even while the request is on its way; offline it is not
 * sent (RE-GENERATE waits for the connection).
 */
export function RegenerateReportDialog({
  report,
  goneCount,
  open,
  onClose,
  onDone,
  invalidate,
}: {
  report: Pick<Report, 'id' | 'title' | 'pdf'>;
  /** Photos deleted or moved to another project since the report was made, when known. */
  goneCount?: number;
  open: boolean;
  onClose: () => void;
  /** The report is queued again. */
  onDone?: () => void;
  invalidate?: ExtraInvalidations<ReportDetail, number>;
}) {
  const regenerate = useRegenerateReport({ invalidate });
  const online = useOnline();
  const titleId = useId();
  const textId = useId();
  // Never held open: a request on its way is forgotten here (its answer still refreshes the views).
  const close = () => {
    regenerate.reset();
    onClose();
  };
  const refused = regenerate.isError && isRefusal(regenerate.error);
  // Only without a PDF does the server make one of the photos left.
  const gone =
    report.pdf !== null
      ? ''
      : goneCount === undefined
        ? ' Photos deleted or moved to another project since it was made are not in it.'
        : goneCount > 0
          ? ` ${plural(goneCount, 'photo')} of this report ${goneCount === 1 ? 'was' : 'were'} deleted or moved to another project since: ${goneCount === 1 ? 'it is' : 'they are'} not in it.`
          : '';
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        Re-generate “{report.title}”?
      </DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          A new PDF is made from the report’s photos as they are now.{gone}
          {report.pdf ? ' The current PDF stays available until the new one is ready.' : ''}
        </DialogContentText>
        {regenerate.isError ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {errorMessage(regenerate.error)}
          </Alert>
        ) : null}
        {!online ? (
          <Alert severity="info" sx={{ mt: 2 }} data-offline-note>
            You are offline: the report can be re-generated when the connection returns.
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          variant="contained"
          loading={regenerate.isPending}
          disabled={!online || refused}
          onClick={() =>
            regenerate.mutate(report.id, {
              onSuccess: () => {
                regenerate.reset();
                onClose();
                onDone?.();
              },
            })
          }
        >
          Re-generate
        </Button>
      </DialogActions>
    </Dialog>
  );
}
