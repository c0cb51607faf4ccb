import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useProject } from '@/features/projects/api/get-project';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { UnderConstruction } from '@/components/under-construction';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOnline } from '@/lib/use-online';
import { parseRouteId } from '@/lib/use-route-id';

const WHAT_WILL_BE_HERE =
  'Creating a report will happen here: pick a kind of report, add the project’s photos to it, write notes and share it with the team.';

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
 * /reports/create?project={id}: the spec's "report-creator" route, reached from a project's
 * Reports section. A placeholder that names the project it came from and links back to it.
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
        <Stack spacing={2}>
          <UnderConstruction whatWillBeHere={WHAT_WILL_BE_HERE} />
          <EmptyState
            message="No project chosen"
            description="Reports belong to a project: open one and choose a report in its Reports section."
            action={<AllProjectsButton />}
          />
        </Stack>
      </>
    );
  }

  if (validId === null) {
    return (
      <>
        <PageHeader title="Create a report" />
        <EmptyState
          message="This link does not name a project."
          description="Open a project and choose a report in its Reports section."
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
      <UnderConstruction whatWillBeHere={WHAT_WILL_BE_HERE} />
    </>
  );
}
