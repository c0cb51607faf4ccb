import AddOutlined from '@mui/icons-material/AddOutlined';
import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReportDetail } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Section } from '@/components/section';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useReports } from '../api/get-reports';
import { ReportCard, ReportCardList, ReportCardsSkeleton } from './report-card';

/** Reports the section shows before ALL REPORTS. */
export const PROJECT_REPORTS_SHOWN = 6;

/** /reports filtered to one project. */
export const projectReportsPath = (projectId: number) => `${paths.reports}?project=${projectId}`;

function NewReportButton({
  projectId,
  variant,
}: {
  projectId: number;
  variant: 'text' | 'contained';
}) {
  return (
    <Button
      component={RouterLink}
      to={paths.reportCreate(projectId)}
      variant={variant}
      size={variant === 'text' ? 'small' : 'medium'}
      startIcon={<AddOutlined />}
    >
      New report
    </Button>
  );
}

/**
 * The project page's Reports section: the project's latest reports (newest first, each with
 * where its PDF is, DOWNLOAD and, for its author or an admin, RE-GENERATE), ALL REPORTS to the
 * rest on /reports, and NEW REPORT to the report creator. An archived project takes no new
 * report: that is said instead. Shares its list with `/reports?project=` (one cache entry,
 * polled while a report is being made).
 */
export function ProjectReports({
  projectId,
  archived,
  invalidate,
}: {
  projectId: number;
  archived: boolean;
  /** What else shows a report, refreshed after a re-generation (the page knows). */
  invalidate?: ExtraInvalidations<ReportDetail, number>;
}) {
  const reports = useReports({ project: projectId });
  const shown = reports.data?.slice(0, PROJECT_REPORTS_SHOWN) ?? [];
  const more = (reports.data?.length ?? 0) > PROJECT_REPORTS_SHOWN || reports.hasNextPage;
  const empty = reports.isSuccess && reports.data.length === 0;
  // NEW REPORT beside the heading, except where the empty state offers it in its place.
  const action =
    (reports.data?.length ?? 0) > 0 || !(archived || empty) ? (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        {(reports.data?.length ?? 0) > 0 ? (
          <Link component={RouterLink} to={projectReportsPath(projectId)} variant="body2">
            All reports
          </Link>
        ) : null}
        {archived || empty ? null : <NewReportButton projectId={projectId} variant="text" />}
      </Stack>
    ) : undefined;
  let body;
  if (reports.isPending) body = <ReportCardsSkeleton count={2} label="Loading reports…" />;
  else if (reports.isLoadingError)
    body = (
      <ErrorState
        error={reports.error}
        title="Could not load this project’s reports"
        onRetry={() => void reports.refetch()}
        retrying={reports.isFetching}
      />
    );
  else if (shown.length === 0)
    body = (
      <EmptyState
        icon={<AssessmentOutlined />}
        message="No reports yet"
        description={
          archived
            ? 'This project is archived: no new reports can be made. Restore it to make one.'
            : 'A report is a PDF of this project’s photos, with captions, for the client, the insurer or the file. Each photo carries who took it, when, where, and its fingerprint.'
        }
        action={
          archived ? undefined : <NewReportButton projectId={projectId} variant="contained" />
        }
      />
    );
  else
    body = (
      <>
        <ReportCardList label="Reports on this project">
          {shown.map((report) => (
            <Box component="li" key={report.id}>
              <ReportCard
                report={report}
                showProject={false}
                showRegenerate
                invalidate={invalidate}
              />
            </Box>
          ))}
        </ReportCardList>
        {more ? (
          <Typography variant="body2" sx={{ mt: 1.5 }}>
            <Link component={RouterLink} to={projectReportsPath(projectId)}>
              See all of this project’s reports
            </Link>
          </Typography>
        ) : null}
        {archived ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            This project is archived: no new reports can be made.
          </Typography>
        ) : null}
      </>
    );
  return (
    <Section title="Reports" action={action}>
      {body}
    </Section>
  );
}
