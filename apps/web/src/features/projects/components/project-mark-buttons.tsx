import Bookmark from '@mui/icons-material/Bookmark';
import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import NotificationsActiveOutlined from '@mui/icons-material/NotificationsActiveOutlined';
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import Button from '@mui/material/Button';
import type { Project } from '@sitelog/shared';
import { useSetProjectMark } from '../api/set-project-mark';

/**
 * BOOKMARK/UNBOOKMARK and FOLLOW/UNFOLLOW (spec §2, §4). Each button calls its toggle, shows the
 * project as the server answers it, and ignores presses while its call runs (aria-disabled, not
 * disabled, so keyboard focus stays on it). A failure is reported through `onError` so the page
 * can show it.
 */
export function ProjectMarkButtons({
  project,
  onError,
}: {
  project: Project;
  onError: (error: unknown) => void;
}) {
  const bookmark = useSetProjectMark(project.id);
  const follow = useSetProjectMark(project.id);
  const options = { onError };
  return (
    <>
      <Button
        variant={project.isFavorited ? 'contained' : 'outlined'}
        startIcon={project.isFavorited ? <Bookmark /> : <BookmarkBorderOutlined />}
        aria-disabled={bookmark.isPending}
        onClick={() => {
          if (!bookmark.isPending)
            bookmark.mutate(project.isFavorited ? 'unfavor' : 'favor', options);
        }}
      >
        {project.isFavorited ? 'Unbookmark' : 'Bookmark'}
      </Button>
      <Button
        variant={project.isFollowed ? 'contained' : 'outlined'}
        startIcon={
          project.isFollowed ? <NotificationsActiveOutlined /> : <NotificationsNoneOutlined />
        }
        aria-disabled={follow.isPending}
        onClick={() => {
          if (!follow.isPending) follow.mutate(project.isFollowed ? 'unfollow' : 'follow', options);
        }}
      >
        {project.isFollowed ? 'Unfollow' : 'Follow'}
      </Button>
    </>
  );
}
