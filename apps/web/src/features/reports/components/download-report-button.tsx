import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import type { Report } from '@sitelog/shared';
import { visuallyHidden } from '@/components/visually-hidden';
import { pdfFileName } from '../report-text';

/**
 * DOWNLOAD: a real link to the report's stored PDF (a signed link bound to the session) with the
 * `download` attribute, so the browser saves it under the report's title. Its accessible name
 * says which report, as several are listed together. Nothing while no PDF has been made.
 */
export function DownloadReportButton({
  report,
  variant = 'outlined',
  size,
}: {
  report: Pick<Report, 'id' | 'title' | 'pdf'>;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  if (!report.pdf) return null;
  return (
    <Button
      component="a"
      href={report.pdf.link}
      download={pdfFileName(report)}
      variant={variant}
      size={size}
      startIcon={<DownloadOutlined />}
    >
      Download{' '}
      {/* The space outside the hidden part: a span's own edge spaces fall out of the name. */}
      <Box component="span" sx={visuallyHidden}>
        {`“${report.title}” (PDF)`}
      </Box>
    </Button>
  );
}
