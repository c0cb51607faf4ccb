import AddOutlined from '@mui/icons-material/AddOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { TileGridSkeleton } from '@/components/skeletons';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMyProjects } from '@/features/projects/api/get-my-projects';
import { ProjectGrid } from '@/features/projects/components/project-card';

function NewProjectButton({ variant }: { variant: 'contained' | 'outlined' }) {
  return (
    <Button
      component={RouterLink}
      to={paths.newProject}
      variant={variant}
      startIcon={<AddOutlined />}
    >
      New project
    </Button>
  );
}

/** /projects: the projects the signed-in user created, as tiles (spec §2). */
export function MyProjectsPage() {
  useDocumentTitle('My projects');
  const projects = useMyProjects();
  const count = projects.data?.length;
  return (
    <>
      <PageHeader
        title="My projects"
        subtitle={
          count === undefined
            ? undefined
            : count === 1
              ? '1 project you created'
              : `${count} projects you created`
        }
        actions={count ? <NewProjectButton variant="contained" /> : undefined}
      />
      {projects.isPending ? (
        <TileGridSkeleton count={6} label="Loading your projects…" />
      ) : projects.isError ? (
        <ErrorState
          error={projects.error}
          title="Your projects could not be loaded"
          onRetry={() => void projects.refetch()}
          retrying={projects.isFetching}
        />
      ) : projects.data.length === 0 ? (
        <EmptyState
          icon={<FolderOutlined />}
          message="You have not created any projects yet"
          description="Create a project to start documenting it with photos."
          action={<NewProjectButton variant="contained" />}
        />
      ) : (
        <ProjectGrid projects={projects.data} label="My projects" headingLevel="h2" />
      )}
    </>
  );
}
