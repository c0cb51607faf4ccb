import type { QueryClient } from '@tanstack/react-query';
import type { NotificationPages } from './get-notifications';
import type { UnreadState } from './get-unread-count';
import { notificationKeys } from './keys';

/** The list and the count as they were before a change shown ahead of its answer. */
export interface ReadSnapshot {
  list: NotificationPages | undefined;
  unread: UnreadState | undefined;
}

/**
 * Shows notifications read at once (`ids`, or all of them), and the bell's count lowered by
 * those that were unread; stops the fetches under way that would draw the old state back.
 */
export async function showRead(
  queryClient: QueryClient,
  ids: ReadonlySet<number> | 'all',
): Promise<ReadSnapshot> {
  await Promise.all([
    queryClient.cancelQueries({ queryKey: notificationKeys.list() }),
    queryClient.cancelQueries({ queryKey: notificationKeys.unread() }),
  ]);
  const snapshot: ReadSnapshot = {
    list: queryClient.getQueryData<NotificationPages>(notificationKeys.list()),
    unread: queryClient.getQueryData<UnreadState>(notificationKeys.unread()),
  };
  const marks = (id: number) => ids === 'all' || ids.has(id);
  let newlyRead = 0;
  if (snapshot.list) {
    const pages = snapshot.list.pages.map((page) => ({
      ...page,
      notifications: page.notifications.map((item) => {
        if (item.read || !marks(item.id)) return item;
        newlyRead += 1;
        return { ...item, read: true };
      }),
    }));
    // Each page's `unread` (the total when it was fetched) follows, for MARK ALL AS READ.
    for (const page of pages)
      page.unread = ids === 'all' ? 0 : Math.max(0, page.unread - newlyRead);
    queryClient.setQueryData<NotificationPages>(notificationKeys.list(), {
      ...snapshot.list,
      pages,
    });
  }
  if (snapshot.unread) {
    const count = ids === 'all' ? 0 : Math.max(0, snapshot.unread.count - newlyRead);
    // Without the ETag: it stood for the old count, and the next poll must not be told "same".
    queryClient.setQueryData<UnreadState>(notificationKeys.unread(), { count, etag: null });
  }
  return snapshot;
}

/** Puts back what `showRead` changed: the call failed. */
export function undoShowRead(queryClient: QueryClient, snapshot: ReadSnapshot | undefined): void {
  if (!snapshot) return;
  if (snapshot.list) queryClient.setQueryData(notificationKeys.list(), snapshot.list);
  if (snapshot.unread) queryClient.setQueryData(notificationKeys.unread(), snapshot.unread);
}

/**
 * The bell's count as a call answered it. The ETag is dropped: it stood for another count, and a
 * poll sending it could be told "not modified" while the count differs from the one shown.
 */
export function showCount(queryClient: QueryClient, count: number): void {
  queryClient.setQueryData<UnreadState>(notificationKeys.unread(), { count, etag: null });
}
