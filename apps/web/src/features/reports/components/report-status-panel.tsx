import DeleteOutline from '@mui/icons-material/DeleteOutline';
import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReportDetail } from '@sitelog/shared';
import { useState } from 'react';
import { visuallyHidden } from '@/components/visually-hidden';
import { formatDateTime } from '@/lib/format-date';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { isInProgress } from '../api/get-reports';
import { formatBytes, plural, statusSentence } from '../report-text';
import { DeleteReportDialog } from './delete-report-dialog';
import { DownloadReportButton } from './download-report-button';
import { RegenerateReportDialog } from './regenerate-report-dialog';
import { ReportProgress } from './report-status';

/**
 * A report's PDF on its page: where it is, in a polite live region (screen readers hear
 * "Generating… 12 of 40 photos" as it moves and "Report ready" when it is), the progress bar
 * while it is made, the reason if it failed; DOWNLOAD PDF and OPEN (the same link in a new tab)
 * once one exists; RE-GENERATE and DELETE, each confirmed, for the author or an admin.
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
  const running = isInProgress(report);
  const { pdf } = report;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, mb: 4 }}>
      <Stack spacing={2}>
        <Box>
          <Typography
            role="status"
            aria-live="polite"
            aria-atomic
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
          {report.canManage ? (
            <>
              <Button
                variant="outlined"
                startIcon={<RefreshOutlined />}
                disabled={running}
                onClick={() => setDialog('regenerate')}
              >
                Re-generate
              </Button>
              <Button
                variant="outlined"
                color="error"
                startIcon={<DeleteOutline />}
                onClick={() => setDialog('delete')}
              >
                Delete
              </Button>
            </>
          ) : null}
        </Stack>
      </Stack>
      {report.canManage ? (
        <>
          <RegenerateReportDialog
            report={report}
            goneCount={report.goneCount}
            open={dialog === 'regenerate'}
            onClose={() => setDialog(null)}
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
