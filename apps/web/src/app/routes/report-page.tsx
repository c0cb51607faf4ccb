import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useNavigate } from 'react-router';
import type { ReportDetail } from '@sitelog/shared';
import { ErrorState } from '@/components/error-state';
import { errorMessage } from '@/lib/api-client';
import { NotFoundState } from '@/components/not-found-state';
import { OfflineFallback } from '@/components/offline-state';
import { PageHeader } from '@/components/page-header';
import { ListSkeleton } from '@/components/skeletons';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useRouteId } from '@/lib/use-route-id';
import { afterReportChange, afterReportDelete } from '../invalidations';
import { focusReportsHeading } from './reports-page';
import { useReport } from '@/features/reports/api/get-report';
import { ReportFacts } from '@/features/reports/components/report-facts';
import { ReportPhotos } from '@/features/reports/components/report-photos';
import { ReportSharePanel } from '@/features/reports/components/report-share-panel';
import { ReportStatusPanel } from '@/features/reports/components/report-status-panel';
import { typeLabel } from '@/features/reports/report-text';

function ReportNotFound() {
  return (
    <NotFoundState
      title="Report not found"
      message="There is no report at this address."
      description="It may have been deleted, or the link may be mistyped."
      to={paths.reports}
      actionLabel="All reports"
      icon={<SearchOffOutlined />}
    />
  );
}

function ReportPageSkeleton() {
  useDocumentTitle('Report');
  return (
    <OfflineFallback>
      <Box role="status" aria-label="Loading report…">
        <Skeleton variant="text" sx={{ fontSize: '1.75rem', width: '60%' }} />
        <Skeleton variant="text" sx={{ width: '40%', mb: 3 }} />
        <Skeleton variant="rounded" height={120} sx={{ mb: 4 }} />
        <ListSkeleton rows={4} />
      </Box>
    </OfflineFallback>
  );
}

function ReportView({
  report,
  refreshError,
  onRetry,
  retrying,
}: {
  report: ReportDetail;
  /** A poll failed (its retries spent): polling stopped, the page says so with RETRY. */
  refreshError: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  useDocumentTitle(report.title);
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title={report.title} subtitle={`${typeLabel(report)} · ${report.project.name}`} />
      {refreshError ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" loading={retrying} onClick={onRetry}>
              Retry
            </Button>
          }
        >
          {`This report could not be refreshed: ${errorMessage(refreshError)} What is shown may be out of date.`}
        </Alert>
      ) : null}
      <ReportStatusPanel
        report={report}
        onDeleted={() =>
          void navigate(paths.reports, { replace: true, state: focusReportsHeading })
        }
        invalidateOnRegenerate={afterReportChange()}
        invalidateOnDelete={afterReportDelete()}
      />
      <ReportFacts report={report} />
      {report.canManage ? <ReportSharePanel report={report} /> : null}
      <ReportPhotos report={report} />
    </>
  );
}

function ReportLoadError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  useDocumentTitle('Report');
  return (
    <>
      <PageHeader title="Report" />
      <ErrorState
        error={error}
        title="The report could not be loaded"
        onRetry={onRetry}
        retrying={retrying}
      />
    </>
  );
}

function ReportLoader({ id }: { id: number }) {
  const query = useReport(id);
  if (query.isPending) return <ReportPageSkeleton />;
  // Deleted (here or elsewhere, found by a poll or a refused change): whatever was cached goes.
  if (isNotFound(query.error)) return <ReportNotFound />;
  // Another failed poll keeps the report on screen, said with RETRY (the polling stopped).
  if (query.data === undefined) {
    return (
      <ReportLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return (
    <ReportView
      report={query.data}
      refreshError={query.isRefetchError ? query.error : null}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}

/**
 * /report/{id}: one report (not in the spec's list: where a report's PDF, progress, photos and
 * public links are). Its status moves live while the PDF is made; its author or an admin
 * re-generates, deletes (then back to /reports) and shares it outside the team.
 */
export function ReportPage() {
  const reportId = useRouteId();
  if (reportId === null) return <ReportNotFound />;
  // Keyed by id, so moving between reports starts each page afresh.
  return <ReportLoader key={reportId} id={reportId} />;
}
