import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { Project } from '@sitelog/shared';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { PageHeader } from '@/components/page-header';
import { ListSkeleton } from '@/components/skeletons';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useArchivedProjects } from '@/features/projects/api/get-archived-projects';
import { ArchivedProjectsList } from '@/features/projects/components/archived-projects-list';
import { afterProjectArchive } from '../invalidations';

const countFormat = new Intl.NumberFormat();

/**
 * Says which project was just restored, with the way to it. It takes focus when it appears: the
 * RESTORE pressed has left the page with its row.
 */
function RestoredNotice({ project, onClose }: { project: Project; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [project.id]);
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      role="status"
      severity="success"
      onClose={onClose}
      sx={{ mb: 2, overflowWrap: 'anywhere' }}
      action={
        <Button component={RouterLink} to={paths.project(project.id)} color="inherit" size="small">
          Open project
        </Button>
      }
    >
      “{project.name}” is restored and back in the project lists.
    </Alert>
  );
}

/**
 * /projects/archived (the menu's Archive): archived projects, most recently archived first, with
 * who archived each and when, and RESTORE for its creator or an admin (spec §2, issue 14).
 */
export function ArchivedProjectsPage() {
  useDocumentTitle('Archived projects');
  const projects = useArchivedProjects();
  const [restored, setRestored] = useState<Project | null>(null);
  const count = projects.data?.length;
  return (
    <>
      <PageHeader
        title="Archived projects"
        subtitle={
          count === undefined
            ? undefined
            : count === 1
              ? '1 archived project · read-only, hidden from the project lists'
              : `${countFormat.format(count)} archived projects · read-only, hidden from the project lists`
        }
      />
      {restored ? <RestoredNotice project={restored} onClose={() => setRestored(null)} /> : null}
      {projects.isPending ? (
        <ListSkeleton rows={5} label="Loading archived projects…" />
      ) : projects.isError ? (
        <ErrorState
          error={projects.error}
          title="The archived projects could not be loaded"
          onRetry={() => void projects.refetch()}
          retrying={projects.isFetching}
        />
      ) : projects.data.length === 0 ? (
        <EmptyState
          icon={<ArchiveOutlined />}
          message="No archived projects"
          description="A finished project archived from its page is listed here: hidden from the project lists, read-only, and restorable by its creator or an admin."
        />
      ) : (
        <ArchivedProjectsList
          projects={projects.data}
          invalidate={afterProjectArchive()}
          onRestored={setRestored}
        />
      )}
    </>
  );
}
