import ErrorOutline from '@mui/icons-material/ErrorOutline';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Report } from '@sitelog/shared';
import { formatDateTime } from '@/lib/format-date';
import { formatBytes, plural, statusSentence } from '../report-text';

type StatusReport = Pick<Report, 'status' | 'progress' | 'photoCount' | 'error' | 'pdf' | 'title'>;

/** The progress bar of a report being made: determinate once photos are being drawn. */
export function ReportProgress({ report }: { report: StatusReport }) {
  const label = `Progress of “${report.title}”`;
  if (report.status === 'queued')
    return <LinearProgress aria-label={label} aria-valuetext="Waiting to start" />;
  const done = Math.min(report.progress, report.photoCount);
  return (
    <LinearProgress
      variant="determinate"
      value={report.photoCount > 0 ? (done / report.photoCount) * 100 : 0}
      aria-label={label}
      aria-valuetext={`${done} of ${plural(report.photoCount, 'photo')}`}
    />
  );
}

/**
 * Where a report's PDF is, as a list or card shows it: a progress bar while it is queued or being
 * made ("Generating… 12 of 40 photos"), the reason when it failed, the pages and size once
 * ready. A PDF made before stays downloadable while a new one is made; that is said too.
 */
export function ReportStatusLine({ report }: { report: StatusReport }) {
  if (report.status === 'ready')
    return (
      <Typography variant="body2" color="text.secondary">
        {report.pdf
          ? `PDF · ${plural(report.pdf.pages, 'page')} · ${formatBytes(report.pdf.bytes)}`
          : 'Report ready'}
      </Typography>
    );
  if (report.status === 'failed')
    return (
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'flex-start', color: 'error.main' }}>
        <ErrorOutline aria-hidden fontSize="small" sx={{ mt: '1px' }} />
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {statusSentence(report)}
          {report.pdf
            ? ` The PDF made on ${formatDateTime(report.pdf.generatedAt)} is still available.`
            : ''}
        </Typography>
      </Stack>
    );
  return (
    <Box>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', mb: 0.5 }}>
        <HourglassEmptyOutlined aria-hidden fontSize="small" color="action" />
        <Typography variant="body2">{statusSentence(report)}</Typography>
      </Stack>
      <ReportProgress report={report} />
      {report.pdf ? (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          The PDF made on {formatDateTime(report.pdf.generatedAt)} stays available until the new one
          is ready.
        </Typography>
      ) : null}
    </Box>
  );
}
