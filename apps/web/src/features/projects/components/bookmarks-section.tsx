import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useBookmarkedProjects } from '../api/get-bookmarked-projects';
import { ProjectGrid, ProjectGridSkeleton } from './project-card';

/** Home: the user's bookmarked projects as tiles (GET /api/project/bookmark). */
export function BookmarksSection() {
  const bookmarks = useBookmarkedProjects();
  return (
    <Section title="Bookmarks">
      {bookmarks.isPending ? (
        <ProjectGridSkeleton count={4} label="Loading bookmarks…" />
      ) : bookmarks.isError ? (
        <ErrorState
          error={bookmarks.error}
          title="Bookmarks could not be loaded"
          onRetry={() => void bookmarks.refetch()}
          retrying={bookmarks.isFetching}
        />
      ) : bookmarks.data.length === 0 ? (
        <EmptyState
          icon={<BookmarkBorderOutlined />}
          message="No bookmarked projects yet"
          description="Bookmark a project to find it here."
          action={
            <Button component={RouterLink} to={paths.allProjects} variant="outlined">
              Browse all projects
            </Button>
          }
        />
      ) : (
        <ProjectGrid projects={bookmarks.data} label="Bookmarked projects" />
      )}
    </Section>
  );
}
