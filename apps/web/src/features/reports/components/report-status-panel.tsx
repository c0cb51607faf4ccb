import DeleteOutline from '@mui/icons-material/DeleteOutline';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { Report, ReportDetail } from '@sitelog/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import { formatDateTime } from '@/lib/format-date';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useOnline } from '@/lib/use-online';
import { isInProgress } from '../api/get-reports';
import { formatBytes, plural, statusSentence } from '../report-text';
import { DeleteReportDialog } from './delete-report-dialog';
import { DownloadReportButton } from './download-report-button';
import { RegenerateReportDialog } from './regenerate-report-dialog';
import { ReportProgress } from './report-status';

/**
 * What the live region says: only the report's state, so a screen reader hears each change
 * (waiting, being made, ready, failed) once, not every photo drawn (the progress bar has those).
 */
export function statusAnnouncement(report: Pick<Report, 'status' | 'error'>): string {
  switch (report.status) {
    case 'queued':
      return 'The report is waiting to be made.';
    case 'generating':
      return 'The report’s PDF is being made.';
    case 'ready':
      return 'The report’s PDF is ready.';
    case 'failed':
      return `The report’s PDF failed${report.error ? `: ${report.error}` : '.'}`;
  }
}

/**
 * A report's PDF on its page: where it is ("Generating… 12 of 40 photos", focusable so the
 * focus lands on it after RE-GENERATE), with a separate polite live region that says only
 * when the state changes; the progress bar while it is made, the reason if it failed;
 * DOWNLOAD PDF and OPEN (the same link in a new tab) once one exists; RE-GENERATE and DELETE,
 * each confirmed, for the author or an admin while online. An archived project's reports are
 * read-only (no RE-GENERATE nor DELETE); a PDF holding photos deleted or moved away since is
 * not made again (it would leave them out): a new report is offered instead.
 */
export function ReportStatusPanel({
  report,
  onDeleted,
  invalidateOnRegenerate,
  invalidateOnDelete,
}: {
  report: ReportDetail;
  /** The report is gone: the page leaves. */
  onDeleted: () => void;
  invalidateOnRegenerate?: ExtraInvalidations<ReportDetail, number>;
  invalidateOnDelete?: ExtraInvalidations<undefined, number>;
}) {
  const [dialog, setDialog] = useState<'regenerate' | 'delete' | null>(null);
  const online = useOnline();
  const running = isInProgress(report);
  const { pdf } = report;
  const archived = report.project.archived;
  const canChange = report.canManage && !archived;
  // Making it again would leave out photos the PDF holds: the server refuses (409).
  const keepsGone = pdf !== null && report.goneCount > 0;
  const goneNoteId = useId();
  const offlineNoteId = useId();
  // After RE-GENERATE is confirmed the focus goes to the status (the button is disabled then),
  // once the dialog has closed and given the focus back.
  const statusRef = useRef<HTMLParagraphElement>(null);
  const focusStatus = useRef(false);
  useEffect(() => {
    if (!focusStatus.current || dialog !== null) return;
    focusStatus.current = false;
    statusRef.current?.focus();
  });
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Stack spacing={2}>
        <Box>
          <Box role="status" aria-live="polite" aria-atomic data-report-live sx={visuallyHidden}>
            {statusAnnouncement(report)}
          </Box>
          <Typography
            ref={statusRef}
            tabIndex={-1}
            component="p"
            variant="subtitle1"
            sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
            data-report-status={report.status}
          >
            {report.status === 'failed' ? 'The PDF could not be made' : statusSentence(report)}
          </Typography>
          {running ? (
            <Box sx={{ mt: 1, maxWidth: 560 }}>
              <ReportProgress report={report} />
            </Box>
          ) : null}
          {report.status === 'failed' ? (
            <Alert severity="error" sx={{ mt: 1 }}>
              {report.error ?? 'Something went wrong while the PDF was made.'}
              {report.canManage ? ' Re-generate to try again.' : ''}
            </Alert>
          ) : null}
          {pdf ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {`PDF of ${plural(pdf.pages, 'page')}, ${formatBytes(pdf.bytes)}, made ${formatDateTime(pdf.generatedAt)}.`}
              {running ? ' It stays available until the new one is ready.' : ''}
            </Typography>
          ) : running ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              You can leave this page: the PDF is made on the server, and the report will be listed
              under Reports when it is ready.
            </Typography>
          ) : null}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {pdf ? (
            <>
              <DownloadReportButton report={report} variant="contained" />
              <Button
                component="a"
                href={pdf.link}
                target="_blank"
                rel="noopener noreferrer"
                variant="outlined"
                startIcon={<OpenInNewOutlined />}
              >
                Open{' '}
                <Box component="span" sx={visuallyHidden}>
                  the PDF in a new tab
                </Box>
              </Button>
            </>
          ) : null}
          {canChange ? (
            <>
              <Button
                variant="outlined"
                startIcon={<RefreshOutlined />}
                disabled={running || keepsGone || !online}
                aria-describedby={keepsGone ? goneNoteId : !online ? offlineNoteId : undefined}
                onClick={() => setDialog('regenerate')}
              >
                Re-generate
              </Button>
              <Button
                variant="outlined"
                color="error"
                startIcon={<DeleteOutline />}
                disabled={!online}
                aria-describedby={!online ? offlineNoteId : undefined}
                onClick={() => setDialog('delete')}
              >
                Delete
              </Button>
            </>
          ) : null}
        </Stack>
        {archived ? (
          <Typography variant="body2" color="text.secondary" data-archived-note>
            Archived project: reports are read-only. Restore the project to re-generate or delete
            this one.
          </Typography>
        ) : null}
        {canChange && keepsGone ? (
          <Alert severity="info" id={goneNoteId}>
            {report.goneCount === 1
              ? '1 photo in this PDF was deleted or moved to another project since; making it again would leave it out. The PDF keeps it — '
              : `${report.goneCount} photos in this PDF were deleted or moved to another project since; making it again would leave them out. The PDF keeps them — `}
            <Link component={RouterLink} to={paths.reportCreate(report.project.id)}>
              make a new report
            </Link>{' '}
            instead.
          </Alert>
        ) : null}
        {canChange && !online ? (
          <Typography variant="body2" color="text.secondary" id={offlineNoteId} data-offline-note>
            You are offline: re-generating and deleting need the connection.
          </Typography>
        ) : null}
      </Stack>
      {canChange ? (
        <>
          <RegenerateReportDialog
            report={report}
            goneCount={report.goneCount}
            open={dialog === 'regenerate'}
            onClose={() => setDialog(null)}
            onDone={() => {
              focusStatus.current = true;
            }}
            invalidate={invalidateOnRegenerate}
          />
          <DeleteReportDialog
            report={report}
            open={dialog === 'delete'}
            onClose={() => setDialog(null)}
            onDeleted={onDeleted}
            invalidate={invalidateOnDelete}
          />
        </>
      ) : null}
    </Paper>
  );
}
