import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';

/**
 * Home: the user's bookmarked projects.
 * TODO(projects issue): load GET /api/project/favnfol and show project tiles; the empty state
 * below stays for users without bookmarks.
 */
export function BookmarksSection() {
  return (
    <Section title="Bookmarks">
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
    </Section>
  );
}
