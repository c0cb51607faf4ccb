import { notificationPageSchema, type NotificationPage } from '@sitelog/shared';
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** Notifications per page. */
export const NOTIFICATIONS_PAGE = 30;

/** `/api/notifications?…`: the page before `before` (a notification id), newest first. */
export function notificationsPath(before?: number): string {
  const params = new URLSearchParams({ limit: String(NOTIFICATIONS_PAGE) });
  if (before !== undefined) params.set('before', String(before));
  return `/api/notifications?${params.toString()}`;
}

/** GET /api/notifications: one page of the signed-in member's notifications. */
export const getNotifications = (before?: number, signal?: AbortSignal) =>
  api.get(notificationsPath(before), notificationPageSchema, { signal });

export type NotificationPages = InfiniteData<NotificationPage, number | undefined>;

/** Every page loaded so far; the next asks for the notifications before the last one's `next`. */
export const notificationsInfiniteOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam, signal }) => getNotifications(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: NotificationPage) => last.next ?? undefined,
  });

export const useNotifications = () => useInfiniteQuery(notificationsInfiniteOptions());
