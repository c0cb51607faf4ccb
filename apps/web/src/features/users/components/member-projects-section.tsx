import FolderOutlined from '@mui/icons-material/FolderOutlined';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import type { Project } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useMemberProjects } from '../api/get-member-projects';

/** The plain rendering: each project's name linking to it, with its location. */
function ProjectNameList({ projects, label }: { projects: Project[]; label: string }) {
  return (
    <Paper variant="outlined">
      <List disablePadding aria-label={label}>
        {projects.map((project) => (
          <ListItem key={project.id} divider>
            <ListItemText
              primary={
                <Link component={RouterLink} to={paths.project(project.id)}>
                  {project.name}
                </Link>
              }
              secondary={project.location}
              slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
            />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

interface MemberProjectsSectionProps {
  userId: number;
  /** The heading, e.g. "Projects (3)". */
  title: ReactNode;
  /** Empty-state text, e.g. "No projects yet". */
  emptyMessage?: string;
  /**
   * How to show the loaded projects; the page passes the projects feature's tiles. Without it,
   * a list of names linking to each project.
   */
  renderProjects?: (projects: Project[]) => ReactNode;
}

/** A member's projects on /profile and /profile/{id}, with loading, error and empty states. */
export function MemberProjectsSection({
  userId,
  title,
  emptyMessage = 'No projects yet',
  renderProjects,
}: MemberProjectsSectionProps) {
  const query = useMemberProjects(userId);
  let content: ReactNode;
  if (query.isPending) content = <ListSkeleton rows={3} label="Loading projects…" />;
  else if (query.isError) {
    content = (
      <ErrorState
        error={query.error}
        title="Could not load the projects"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (query.data.length === 0) {
    content = <EmptyState icon={<FolderOutlined />} message={emptyMessage} />;
  } else {
    content = renderProjects ? (
      renderProjects(query.data)
    ) : (
      <ProjectNameList projects={query.data} label="Member projects" />
    );
  }
  return <Section title={title}>{content}</Section>;
}
