import DoneAllOutlined from '@mui/icons-material/DoneAllOutlined';
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import Button from '@mui/material/Button';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { useCurrentUser } from '@/lib/session';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllNotificationsRead } from '../api/mark-all-notifications-read';
import { useMarkNotificationRead } from '../api/mark-notification-read';
import { ActivityItem, ActivityList } from './activity-item';
import { LoadMore } from './load-more';

/**
 * MARK ALL AS READ, while something is unread. It shares the list's query, so it knows the count
 * the list was answered with (lowered at once as items are read). A failure (the notifications
 * are shown unread again) goes to `onError`, for the page to say.
 */
export function MarkAllReadButton({ onError }: { onError: (error: unknown) => void }) {
  const list = useNotifications();
  const markAll = useMarkAllNotificationsRead();
  if (!list.isSuccess) return null;
  const anyUnread =
    (list.data.pages[0]?.unread ?? 0) > 0 ||
    list.data.pages.some((page) => page.notifications.some((item) => !item.read));
  return (
    <Button
      variant="outlined"
      startIcon={<DoneAllOutlined />}
      disabled={!anyUnread}
      loading={markAll.isPending}
      loadingPosition="start"
      onClick={() => markAll.mutate(undefined, { onError })}
    >
      Mark all as read
    </Button>
  );
}

/**
 * The signed-in member's notifications, newest first, LOAD MORE for older ones. Opening one
 * marks it read and goes to its photo or project.
 */
export function NotificationsList() {
  const viewer = useCurrentUser();
  const list = useNotifications();
  const markRead = useMarkNotificationRead();

  if (list.isPending) return <ListSkeleton rows={6} label="Loading notifications…" />;
  if (list.isError && !list.isFetchNextPageError)
    return (
      <ErrorState
        error={list.error}
        title="Could not load your notifications"
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  // A group of photos that grew moves to the top: shown once, where the newest page has it.
  const seen = new Set<number>();
  const notifications = list.data.pages
    .flatMap((page) => page.notifications)
    .filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
  if (notifications.length === 0)
    return (
      <EmptyState
        icon={<NotificationsNoneOutlined />}
        message="You're all caught up"
        description="Comments on your photos, mentions of you, and new photos and changes in the projects you follow will show here."
      />
    );
  return (
    <>
      <ActivityList label="Notifications">
        {notifications.map((notification) => (
          <ActivityItem
            key={notification.id}
            event={notification}
            viewerId={viewer.id}
            unread={!notification.read}
            onOpen={notification.read ? undefined : () => markRead.mutate(notification.id)}
          />
        ))}
      </ActivityList>
      <LoadMore query={list} what="notifications" />
    </>
  );
}
