import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { useProject } from '@/features/projects/api/get-project';
import { isArchived } from '@/features/projects/can-archive-project';
import { UploadForm } from '@/features/uploads/components/upload-form';
import { useRecentProjects } from '@/features/uploads/queue/use-recent-projects';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCurrentUser } from '@/lib/session';
import { useRouteId } from '@/lib/use-route-id';

function ProjectNotFound() {
  return (
    <EmptyState
      message="This project does not exist."
      description="It may have been removed, or the link may be mistyped. Pick the project to upload to."
      action={
        <Button component={RouterLink} to={paths.uploaderChoose} variant="contained">
          Choose a project
        </Button>
      }
    />
  );
}

/** An archived project is read-only (issue 14): the server refuses its uploads with a 409. */
function ProjectArchived({ projectId }: { projectId: number }) {
  return (
    <EmptyState
      icon={<ArchiveOutlined />}
      message="This project is archived."
      description="Archived projects are read-only: no photos can be added until the project is restored. Pick another project to upload to."
      action={
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: 'wrap', justifyContent: 'center' }}
        >
          <Button component={RouterLink} to={paths.uploaderChoose} variant="contained">
            Choose a project
          </Button>
          <Button component={RouterLink} to={paths.project(projectId)} variant="outlined">
            Open the project
          </Button>
        </Stack>
      }
    />
  );
}

function UploaderSkeleton() {
  return (
    <Stack role="status" aria-label="Loading the uploader…" spacing={2} sx={{ maxWidth: 720 }}>
      <Skeleton variant="rounded" height={56} />
      <Skeleton variant="rounded" height={104} />
      <Skeleton variant="rounded" height={42} width={180} />
    </Stack>
  );
}

function Uploader({ projectId }: { projectId: number }) {
  const user = useCurrentUser();
  const project = useProject(projectId);
  const recent = useRecentProjects(user.id);
  const known = recent?.find((p) => p.projectId === projectId);
  // Offline with nothing loaded yet the query is paused, and a server that cannot be reached
  // fails it: the uploader works anyway (only a project known to be gone stops it), named from
  // this device's recent projects or by its number.
  const paused = project.isPending && project.fetchStatus === 'paused';
  const target = project.data
    ? { id: project.data.id, name: project.data.name, location: project.data.location }
    : { id: projectId, name: known?.name ?? null, location: known?.location };
  return (
    <>
      <PageHeader
        title="Add photos"
        subtitle={
          target.name !== null ? (
            <>
              to{' '}
              <Link component={RouterLink} to={paths.project(target.id)}>
                {target.name}
              </Link>
            </>
          ) : paused || project.isError ? (
            `to project ${projectId}`
          ) : undefined
        }
      />
      {project.isError && isNotFound(project.error) ? (
        <ProjectNotFound />
      ) : project.data && isArchived(project.data) ? (
        <ProjectArchived projectId={project.data.id} />
      ) : project.isPending && !paused && !known ? (
        <UploaderSkeleton />
      ) : (
        <Stack spacing={2}>
          {paused ? (
            <Alert severity="info">
              You are offline. Photos you add are kept on this device and sent when there is signal.
            </Alert>
          ) : null}
          {project.isError ? (
            // The server could not say (unreachable, failing): photos can still be taken; they
            // wait on the device, and a project that is gone refuses them with its reason.
            <ErrorState
              error={project.error}
              title="Could not load the project"
              onRetry={() => void project.refetch()}
              retrying={project.isFetching}
            />
          ) : null}
          <UploadForm key={target.id} project={target} />
        </Stack>
      )}
    </>
  );
}

/**
 * /uploader/{id}/create (id = project): take photo after photo, or choose several; each is kept
 * on the device and sent in the background (spec §2, §4; issue 12). Then the batch editor.
 */
export function UploaderPage() {
  useDocumentTitle('Add photos');
  const projectId = useRouteId();
  if (projectId === null) {
    return (
      <>
        <PageHeader title="Add photos" />
        <ProjectNotFound />
      </>
    );
  }
  return <Uploader projectId={projectId} />;
}
