import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import HourglassEmptyOutlined from '@mui/icons-material/HourglassEmptyOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { reportTypeLabels, type Report } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { formatDate } from '@/lib/format-date';
import { paths } from '@/lib/paths';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * The days a report covers ("Mar 2, 2026 – Mar 6, 2026", one day once), read as calendar days
 * (a `YYYY-MM-DD` read as UTC midnight would be the day before west of Greenwich).
 */
export function formatDays(from: string, to: string): string {
  const day = (value: string) => {
    const [y, m, d] = value.split('-').map(Number);
    return dayFormat.format(new Date(y!, m! - 1, d));
  };
  return from === to ? day(from) : `${day(from)} – ${day(to)}`;
}

/**
 * Where a report's PDF is, in a few words (the report's page has the whole story). A PDF made
 * before stays downloadable while a new one is made, so that is said first.
 */
export function reportStatusText(
  report: Pick<Report, 'status' | 'progress' | 'photoCount' | 'pdf'>,
): string {
  const kept = report.pdf !== null;
  switch (report.status) {
    case 'ready':
      return 'PDF ready';
    case 'queued':
      return kept ? 'PDF ready · a new one is queued' : 'Queued';
    case 'generating': {
      const done = `${Math.min(report.progress, report.photoCount)} of ${plural(report.photoCount, 'photo')}`;
      return kept ? `PDF ready · a new one is being made: ${done}` : `Being made: ${done}`;
    }
    case 'failed':
      return kept
        ? 'PDF ready · the new one failed: open the report to see why'
        : 'Failed: open the report to see why';
  }
}

function StatusLine({ report }: { report: Report }) {
  const Icon =
    report.status === 'failed'
      ? ErrorOutline
      : report.status === 'ready'
        ? CheckCircleOutline
        : HourglassEmptyOutlined;
  return (
    <Typography
      variant="body2"
      color={report.status === 'failed' && report.pdf === null ? 'error' : 'text.secondary'}
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}
    >
      <Icon aria-hidden sx={{ fontSize: 16, flex: 'none' }} />
      <span>{reportStatusText(report)}</span>
    </Typography>
  );
}

/** The report's first photo, or an icon while it has none. */
function Thumb({ report }: { report: Report }) {
  return (
    <Box
      aria-hidden
      sx={{
        flex: 'none',
        width: { xs: 64, sm: 80 },
        aspectRatio: '4 / 3',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: 'action.hover',
        display: 'grid',
        placeItems: 'center',
      }}
    >
      {report.thumb ? (
        <Box
          component="img"
          src={report.thumb.previewLink}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <AssessmentOutlined sx={{ color: 'text.secondary' }} />
      )}
    </Box>
  );
}

/**
 * Reports found by a search, one under the other: the first photo, the title (a link to the
 * report's page that makes the whole item clickable), the type and project, the author, when it
 * was made, how many photos it holds and the days it covers, and where its PDF is. The texts a search matches (title,
 * type, project, author) are drawn by `renderText`, which marks the words searched for.
 */
export function ReportResults({
  reports,
  renderText,
}: {
  reports: readonly Report[];
  renderText: (text: string) => ReactNode;
}) {
  return (
    <Box
      component="ul"
      aria-label="Reports found"
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      {reports.map((report) => (
        <Box
          component="li"
          key={report.id}
          sx={{
            position: 'relative',
            display: 'flex',
            alignItems: 'flex-start',
            gap: { xs: 1.5, sm: 2 },
            minWidth: 0,
            p: 1.5,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
            '&:hover': { bgcolor: 'action.hover' },
            '&:has(a:focus-visible)': {
              outline: '2px solid',
              outlineColor: 'primary.main',
              outlineOffset: -2,
            },
          }}
        >
          <Thumb report={report} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography
              component="h3"
              variant="subtitle1"
              sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}
            >
              <Link
                component={RouterLink}
                to={paths.report(report.id)}
                underline="hover"
                color="inherit"
                sx={{
                  outline: 'none',
                  // The whole item opens the report; the link keeps its own name and focus.
                  '&::after': { content: '""', position: 'absolute', inset: 0 },
                }}
              >
                {renderText(report.title)}
              </Link>
            </Typography>
            {/* A div: the Archived chip is one. */}
            <Typography
              component="div"
              variant="body2"
              color="text.secondary"
              sx={{ overflowWrap: 'anywhere' }}
            >
              {renderText(reportTypeLabels[report.type])} · {renderText(report.project.name)}
              {report.project.archived ? <ArchivedChip ml={1} /> : null}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              By {renderText(`${report.author.firstname} ${report.author.lastname}`)} · Made{' '}
              <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time> ·{' '}
              {plural(report.photoCount, 'photo')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              Covers {formatDays(report.from, report.to)}
            </Typography>
            <StatusLine report={report} />
          </Box>
        </Box>
      ))}
    </Box>
  );
}
