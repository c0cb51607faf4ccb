import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { Project } from '@sitelog/shared';
import { useProject } from '@/features/projects/api/get-project';
import { isArchived } from '@/features/projects/can-archive-project';
import { ReportCreator } from '@/features/reports/components/creator/report-creator';
import type { ProjectPhotoFeed } from '@/features/reports/components/creator/range-photos';
import { useProjectUploads } from '@/features/uploads/api/get-project-uploads';
import { ArchivedChip } from '@/components/archived-chip';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { TileGridSkeleton } from '@/components/skeletons';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOnline } from '@/lib/use-online';
import { parseRouteId } from '@/lib/use-route-id';
import { afterReportChange } from '../invalidations';

/** The `?project=` query parameter as a positive whole number; null when absent, NaN when malformed. */
function useProjectParam(): number | null {
  const [params] = useSearchParams();
  const raw = params.get('project');
  if (raw === null || raw === '') return null;
  return parseRouteId(raw) ?? Number.NaN;
}

function AllProjectsButton() {
  return (
    <Button component={RouterLink} to={paths.allProjects} variant="contained">
      All projects
    </Button>
  );
}

/**
 * The project's photo feed (the uploads feature's query, shared with the project page's
 * Uploads section), handed to the creator as the pages it has read and a way to read more.
 */
function useProjectPhotoFeed(projectId: number): ProjectPhotoFeed {
  const uploads = useProjectUploads(projectId);
  const { data, error, hasNextPage, isFetchingNextPage, fetchNextPage, refetch } = uploads;
  return {
    photos: data,
    error: uploads.isError ? error : null,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
    retry: () => void (data === undefined ? refetch() : fetchNextPage()),
  };
}

/**
 * The form, once the project is known to be open: the creator composed with its photos. A new
 * report refreshes search results too (its status shows there).
 */
function Creator({ project }: { project: Project }) {
  const feed = useProjectPhotoFeed(project.id);
  return <ReportCreator project={project} feed={feed} invalidateOnCreate={afterReportChange()} />;
}

/**
 * /reports/create?project={id}: the spec's "report-creator" route, reached from a project's
 * Reports section: the report creator for that project. An archived project is read-only, so it
 * gets no form; without a project the page says where to start from.
 */
export function ReportCreatorPage() {
  useDocumentTitle('Create a report');
  const projectId = useProjectParam();
  const validId = projectId !== null && !Number.isNaN(projectId) ? projectId : null;
  const project = useProject(validId);
  const online = useOnline();

  if (projectId === null) {
    return (
      <>
        <PageHeader title="Create a report" />
        <EmptyState
          message="No project chosen"
          description="Reports belong to a project: open one and choose New report in its Reports section."
          action={<AllProjectsButton />}
        />
      </>
    );
  }

  if (validId === null) {
    return (
      <>
        <PageHeader title="Create a report" />
        <EmptyState
          message="This link does not name a project."
          description="Open a project and choose New report in its Reports section."
          action={<AllProjectsButton />}
        />
      </>
    );
  }

  if (project.isError) {
    const missing = isNotFound(project.error);
    return (
      <>
        <PageHeader title="Create a report" />
        {missing ? (
          <EmptyState
            message="Project not found"
            description="The project this report was for does not exist."
            action={<AllProjectsButton />}
          />
        ) : (
          <ErrorState
            error={project.error}
            title="Could not load the project"
            onRetry={() => void project.refetch()}
            retrying={project.isFetching}
          />
        )}
      </>
    );
  }

  const subtitle = project.isPending ? (
    online ? (
      <Box component="span" role="status" aria-label="Loading the project…">
        <Skeleton variant="text" width={200} />
      </Box>
    ) : (
      <Box component="span" role="status">
        You are offline: the project will show when the connection returns.
      </Box>
    )
  ) : (
    <>
      For project{' '}
      <Link component={RouterLink} to={paths.project(validId)}>
        {project.data.name}
      </Link>
      {project.data.location ? ` · ${project.data.location}` : ''}
      {isArchived(project.data) ? <ArchivedChip ml={1} /> : null}
    </>
  );

  return (
    <>
      <PageHeader
        title="Create a report"
        subtitle={subtitle}
        actions={
          <Button
            component={RouterLink}
            to={paths.project(validId)}
            variant="outlined"
            startIcon={<ArrowBack />}
          >
            Back to project
          </Button>
        }
      />
      {project.isPending ? (
        <TileGridSkeleton count={4} label="Loading the project…" />
      ) : isArchived(project.data) ? (
        <Alert severity="info" variant="outlined" sx={{ bgcolor: 'background.paper' }}>
          <AlertTitle>This project is archived</AlertTitle>
          An archived project is read-only, so no new report can be made for it. Its reports so far
          stay on the project page. To report on it again, someone allowed to (its creator or an
          admin) restores it there first.
        </Alert>
      ) : (
        <Creator key={project.data.id} project={project.data} />
      )}
    </>
  );
}
