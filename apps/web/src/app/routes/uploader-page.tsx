import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { useProject } from '@/features/projects/api/get-project';
import { UploadForm } from '@/features/uploads/components/upload-form';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useCurrentUser } from '@/lib/session';
import { useRouteId } from '@/lib/use-route-id';
import { afterUploadChange } from '../invalidations';

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
  return (
    <>
      <PageHeader
        title="Upload photo"
        subtitle={
          project.data ? (
            <>
              to{' '}
              <Link component={RouterLink} to={paths.project(project.data.id)}>
                {project.data.name}
              </Link>
            </>
          ) : undefined
        }
      />
      {project.isPending ? (
        <UploaderSkeleton />
      ) : project.isError ? (
        isNotFound(project.error) ? (
          <ProjectNotFound />
        ) : (
          <ErrorState
            error={project.error}
            title="Could not load the project"
            onRetry={() => void project.refetch()}
            retrying={project.isFetching}
          />
        )
      ) : (
        <UploadForm
          key={project.data.id}
          project={project.data}
          invalidate={afterUploadChange(project.data.id, user.id)}
        />
      )}
    </>
  );
}

/**
 * /uploader/{id}/create (id = project): pick or take a photo and it uploads at once, with
 * progress; optional name and description go with it (spec §2, §4). Then the batch editor.
 */
export function UploaderPage() {
  useDocumentTitle('Upload photo');
  const projectId = useRouteId();
  if (projectId === null) {
    return (
      <>
        <PageHeader title="Upload photo" />
        <ProjectNotFound />
      </>
    );
  }
  return <Uploader projectId={projectId} />;
}
