import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Report, ReportDetail } from '@sitelog/shared';
import { useId } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useRegenerateReport } from '../api/regenerate-report';
import { plural } from '../report-text';

/**
 * Asks before a report's PDF is made again. The new PDF takes the photos as they are now: their
 * current captions stay the report's, but a photo deleted since is left out (said with the count
 * when the caller knows it, from the report's page; in general from a list).
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
  /** Photos deleted since the report was made, when known. */
  goneCount?: number;
  open: boolean;
  onClose: () => void;
  /** The report is queued again. */
  onDone?: () => void;
  invalidate?: ExtraInvalidations<ReportDetail, number>;
}) {
  const regenerate = useRegenerateReport({ invalidate });
  const titleId = useId();
  const textId = useId();
  const close = () => {
    if (regenerate.isPending) return;
    regenerate.reset();
    onClose();
  };
  const gone =
    goneCount === undefined
      ? ' Photos deleted since it was made will be left out.'
      : goneCount > 0
        ? ` ${plural(goneCount, 'photo')} of this report ${goneCount === 1 ? 'has' : 'have'} been deleted since: the new PDF will leave ${goneCount === 1 ? 'it' : 'them'} out.`
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
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={regenerate.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          loading={regenerate.isPending}
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
