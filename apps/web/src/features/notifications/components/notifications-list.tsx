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
import { useCachedUnreadCount } from './notification-bell';
import { RefreshError } from './refresh-error';

/**
 * MARK ALL AS READ, while something is unread: by the bell's polled count, the count the list
 * was answered with (both lowered at once as items are read) or a row shown unread. The poll may
 * know of a notification before the list is asked again, and the rows shown are only the pages
 * loaded. A failure (the notifications are shown unread again) goes to `onError`, for the page
 * to say.
 */
export function MarkAllReadButton({ onError }: { onError: (error: unknown) => void }) {
  const list = useNotifications();
  const polled = useCachedUnreadCount();
  const markAll = useMarkAllNotificationsRead();
  if (!list.isSuccess && polled === 0) return null;
  const anyUnread =
    polled > 0 ||
    (list.data?.pages[0]?.unread ?? 0) > 0 ||
    (list.data?.pages.some((page) => page.notifications.some((item) => !item.read)) ?? false);
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
  // The full error only when nothing loaded; a failed refresh keeps the rows (see below).
  if (list.isLoadingError)
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
  const refreshError = list.isRefetchError ? (
    <RefreshError
      error={list.error}
      what="notifications"
      onRetry={() => void list.refetch()}
      retrying={list.isFetching}
    />
  ) : null;
  if (notifications.length === 0)
    return (
      <>
        {refreshError}
        <EmptyState
          icon={<NotificationsNoneOutlined />}
          message="You're all caught up"
          description="Mentions of you, comments on your photos, and new photos, comments and changes in the projects you follow will show here."
        />
      </>
    );
  return (
    <>
      {refreshError}
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
