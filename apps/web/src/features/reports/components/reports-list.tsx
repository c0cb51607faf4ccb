import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ReportDetail } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useReports, type ReportsFilter } from '../api/get-reports';
import { LoadMoreReports } from './load-more-reports';
import { ReportCard, ReportCardList, ReportCardsSkeleton } from './report-card';

const isFiltered = (filter: ReportsFilter) =>
  filter.project !== undefined || filter.type !== undefined || filter.author !== undefined;

/**
 * The latest reports for a filter, newest first, LOAD MORE for older ones. Each says where its
 * PDF is (polled while one is being made) and offers DOWNLOAD and, to its author or an admin,
 * RE-GENERATE. With none: how a report is made (from a project's Reports section), or, when
 * filtered, a way to clear the filters.
 */
export function ReportsList({
  filter,
  onClearFilters,
  invalidate,
}: {
  filter: ReportsFilter;
  onClearFilters: () => void;
  /** What else shows a report, refreshed after a re-generation (the page knows). */
  invalidate?: ExtraInvalidations<ReportDetail, number>;
}) {
  const reports = useReports(filter);
  if (reports.isPending) return <ReportCardsSkeleton count={4} label="Loading reports…" />;
  // The full error only when nothing loaded; a failed refresh (or poll) keeps the reports.
  if (reports.isLoadingError)
    return (
      <ErrorState
        error={reports.error}
        title="Could not load the reports"
        onRetry={() => void reports.refetch()}
        retrying={reports.isFetching}
      />
    );
  const refreshError = reports.isRefetchError ? (
    <Alert
      severity="warning"
      role="alert"
      sx={{ mb: 2, alignItems: 'center' }}
      action={
        <Button
          color="inherit"
          size="small"
          onClick={() => void reports.refetch()}
          disabled={reports.isFetching}
        >
          Retry
        </Button>
      }
    >
      {`Could not refresh the reports; showing them as last loaded. ${errorMessage(reports.error)}`}
    </Alert>
  ) : null;
  if (reports.data.length === 0)
    return (
      <>
        {refreshError}
        {isFiltered(filter) ? (
          <EmptyState
            icon={<AssessmentOutlined />}
            message="No reports match these filters"
            description="Try another project, type or author, or clear the filters."
            action={<Button onClick={onClearFilters}>Clear filters</Button>}
          />
        ) : (
          <EmptyState
            icon={<AssessmentOutlined />}
            message="No reports yet"
            description="A report is made from a project: open the project, go to its Reports section and choose New report. Pick the photos, write a caption for each, and Sitelog makes a PDF with who took each photo, when, where, and its fingerprint."
            action={
              <Button component={RouterLink} to={paths.allProjects} variant="contained">
                Pick a project
              </Button>
            }
          />
        )}
      </>
    );
  return (
    <>
      {refreshError}
      <ReportCardList label="Reports">
        {reports.data.map((report) => (
          <Box component="li" key={report.id}>
            <ReportCard report={report} headingLevel="h2" showRegenerate invalidate={invalidate} />
          </Box>
        ))}
      </ReportCardList>
      <LoadMoreReports query={reports} />
    </>
  );
}
