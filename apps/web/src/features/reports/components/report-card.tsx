import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import RefreshOutlined from '@mui/icons-material/RefreshOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Report, ReportDetail } from '@sitelog/shared';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { OfflineFallback } from '@/components/offline-state';
import { visuallyHidden } from '@/components/visually-hidden';
import { formatDate } from '@/lib/format-date';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useOnline } from '@/lib/use-online';
import { isInProgress } from '../api/get-reports';
import { authorName, formatDayRange, plural, typeLabel } from '../report-text';
import { DownloadReportButton } from './download-report-button';
import { RegenerateReportDialog } from './regenerate-report-dialog';
import { ReportStatusLine } from './report-status';

const plainText = (text: string): ReactNode => text;

/** The card's grid: the thumbnail beside the text, the buttons beside them or (phones) below. */
const cardGrid = {
  display: 'grid',
  gridTemplateColumns: { xs: '64px minmax(0, 1fr)', sm: '96px minmax(0, 1fr) auto' },
  columnGap: { xs: 1.5, sm: 2 },
  rowGap: 1.5,
  p: 1.5,
  alignItems: 'start',
} as const;

/** The report's first photo, or an icon while it has none (all its photos deleted). */
function ReportThumb({ report }: { report: Pick<Report, 'thumb'> }) {
  return (
    <Box
      sx={{
        width: { xs: 64, sm: 96 },
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
        <AssessmentOutlined aria-hidden sx={{ color: 'text.disabled' }} />
      )}
    </Box>
  );
}

interface ReportCardProps {
  report: Report;
  /** h2 where the list sits right under the page title, h3 inside a titled section. */
  headingLevel?: 'h2' | 'h3';
  /** The project's name (a link to it); off in the project's own section. */
  showProject?: boolean;
  /**
   * RE-GENERATE for those who may (the author or an admin), unless the project is archived (its
   * reports are read-only); disabled offline.
   */
  showRegenerate?: boolean;
  /** What else shows the report, refreshed after a re-generation (the page knows). */
  invalidate?: ExtraInvalidations<ReportDetail, number>;
  /** Draws the title (search results mark the words searched for). */
  renderText?: (text: string) => ReactNode;
}

/**
 * One report in a list: its first photo, title (a link to the report's page), type, project,
 * author, the days it covers, its photos and when it was made; where its PDF is (progress while
 * being made, the reason it failed, pages and size), DOWNLOAD once a PDF exists, and
 * RE-GENERATE (with a confirmation) for its author or an admin while its project is not archived
 * (disabled offline, like the app's other changes).
 */
export function ReportCard({
  report,
  headingLevel = 'h3',
  showProject = true,
  showRegenerate = false,
  invalidate,
  renderText = plainText,
}: ReportCardProps) {
  const [confirming, setConfirming] = useState(false);
  const online = useOnline();
  const canRegenerate = showRegenerate && report.canManage && !report.project.archived;
  const hasActions = report.pdf !== null || canRegenerate;
  return (
    <Card variant="outlined" data-report-id={report.id}>
      <Box sx={cardGrid}>
        <ReportThumb report={report} />
        <Box sx={{ minWidth: 0 }}>
          <Typography
            component={headingLevel}
            variant="subtitle1"
            sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}
          >
            <Link component={RouterLink} to={paths.report(report.id)} underline="hover">
              {renderText(report.title)}
            </Link>
          </Typography>
          {/* A div: the Archived chip is one, and a div may not sit in a paragraph. */}
          <Typography
            component="div"
            variant="body2"
            color="text.secondary"
            sx={{ overflowWrap: 'anywhere' }}
          >
            {typeLabel(report)}
            {showProject ? (
              <>
                {' · '}
                <Link component={RouterLink} to={paths.project(report.project.id)}>
                  {report.project.name}
                </Link>
                {report.project.archived ? <ArchivedChip ml={1} /> : null}
              </>
            ) : null}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {`By ${authorName(report)} · ${formatDayRange(report.from, report.to)} · ${plural(report.photoCount, 'photo')}`}
            <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }}>
              {' · Made '}
              <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time>
            </Box>
          </Typography>
          <Box sx={{ mt: 1, maxWidth: 420 }}>
            <ReportStatusLine report={report} />
          </Box>
        </Box>
        {hasActions ? (
          <Stack
            direction={{ xs: 'row', sm: 'column' }}
            spacing={1}
            useFlexGap
            sx={{
              gridColumn: { xs: '1 / -1', sm: 'auto' },
              flexWrap: 'wrap',
              alignItems: { xs: 'center', sm: 'stretch' },
            }}
          >
            <DownloadReportButton report={report} size="small" />
            {canRegenerate ? (
              <Button
                size="small"
                startIcon={<RefreshOutlined />}
                disabled={isInProgress(report) || !online}
                onClick={() => setConfirming(true)}
              >
                Re-generate{' '}
                <Box component="span" sx={visuallyHidden}>
                  {`“${report.title}”`}
                  {online ? '' : ' (offline)'}
                </Box>
              </Button>
            ) : null}
          </Stack>
        ) : null}
      </Box>
      {canRegenerate ? (
        <RegenerateReportDialog
          report={report}
          open={confirming}
          onClose={() => setConfirming(false)}
          invalidate={invalidate}
        />
      ) : null}
    </Card>
  );
}

/** A list of report cards (a `<ul>`), one under the other. */
export function ReportCardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      {children}
    </Box>
  );
}

/** Cards in the shape of reports while a list loads. */
export function ReportCardsSkeleton({ count = 3, label }: { count?: number; label: string }) {
  return (
    <OfflineFallback>
      <Stack role="status" aria-label={label} spacing={1.5}>
        {Array.from({ length: count }, (_, i) => (
          <Card key={i} variant="outlined">
            <Box sx={cardGrid}>
              <Skeleton
                variant="rounded"
                sx={{ width: { xs: 64, sm: 96 }, height: 'auto', aspectRatio: '4 / 3' }}
              />
              <Box>
                <Typography variant="subtitle1">
                  <Skeleton sx={{ width: '50%' }} />
                </Typography>
                <Typography variant="body2">
                  <Skeleton sx={{ width: '35%' }} />
                </Typography>
                <Typography variant="body2">
                  <Skeleton sx={{ width: '60%' }} />
                </Typography>
              </Box>
            </Box>
          </Card>
        ))}
      </Stack>
    </OfflineFallback>
  );
}
