import AddOutlined from '@mui/icons-material/AddOutlined';
import ViewListOutlined from '@mui/icons-material/ViewListOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ProjectsMap } from '@/features/maps/components/projects-map';
import {
  ProjectsViewToggle,
  useProjectsView,
} from '@/features/maps/components/projects-view-toggle';
import { useProjectRows } from '@/features/projects/api/get-project-rows';
import { ProjectsTable } from '@/features/projects/components/projects-table';

const countFormat = new Intl.NumberFormat();

/**
 * /projects/all: every project in a sortable, filterable table (spec §2), or on a map
 * (`?view=map`).
 */
export function AllProjectsPage() {
  useDocumentTitle('All projects');
  const rows = useProjectRows();
  const view = useProjectsView();
  const count = rows.data?.length;
  const newProject = (
    <Button
      component={RouterLink}
      to={paths.newProject}
      variant="contained"
      startIcon={<AddOutlined />}
    >
      New project
    </Button>
  );
  return (
    <>
      <PageHeader
        title="All projects"
        subtitle={
          count === undefined
            ? undefined
            : count === 1
              ? '1 project'
              : `${countFormat.format(count)} projects`
        }
        actions={
          <>
            <ProjectsViewToggle />
            {count ? newProject : null}
          </>
        }
      />
      {view === 'map' ? (
        <ProjectsMap />
      ) : rows.isPending ? (
        <ListSkeleton rows={8} label="Loading projects…" />
      ) : rows.isError ? (
        <ErrorState
          error={rows.error}
          title="The projects could not be loaded"
          onRetry={() => void rows.refetch()}
          retrying={rows.isFetching}
        />
      ) : rows.data.length === 0 ? (
        <EmptyState
          icon={<ViewListOutlined />}
          message="No projects yet"
          description="Projects the team creates are listed here."
          action={newProject}
        />
      ) : (
        <ProjectsTable items={rows.data} />
      )}
    </>
  );
}
