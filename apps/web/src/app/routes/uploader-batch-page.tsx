import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useProject } from '@/features/projects/api/get-project';
import { VisitEditor } from '@/features/uploads/components/visit-editor';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useRouteId } from '@/lib/use-route-id';
import { NotFoundPage } from './not-found-page';

function Batch({ projectId }: { projectId: number }) {
  const project = useProject(projectId);
  return (
    <>
      <PageHeader
        title="Name and describe"
        subtitle={
          <>
            Photos of this visit to{' '}
            <Link component={RouterLink} to={paths.project(projectId)}>
              {project.data?.name ?? `project ${projectId}`}
            </Link>
            . Type a name and description for each, or one for all.
          </>
        }
      />
      <VisitEditor projectId={projectId} />
    </>
  );
}

/**
 * /uploader/{id}/batch (id = project; not in the spec): the batch editor of the uploader's
 * current visit, listing every photo taken in it (issue 12).
 */
export function UploaderBatchPage() {
  useDocumentTitle('Name and describe');
  const projectId = useRouteId();
  if (projectId === null) return <NotFoundPage />;
  return <Batch projectId={projectId} />;
}
