import type { UnreadCount } from '@sitelog/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getIfChanged } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** How often the bell asks while the tab is visible and online. */
export const UNREAD_POLL_MS = 5_000;

/** The bell's count and the ETag it came with, sent back on the next poll. */
export interface UnreadState {
  count: number;
  etag: string | null;
}

/*
 * The answer is checked by hand, not with `unreadCountSchema`: the shell polls this, and zod
 * stays out of its first download. It accepts what the schema accepts.
 */
function readUnreadCount(body: unknown): UnreadCount | null {
  if (typeof body !== 'object' || body === null) return null;
  const { count } = body as Record<string, unknown>;
  return typeof count === 'number' && Number.isInteger(count) ? { count } : null;
}

/**
 * GET /api/notifications/unread, conditional on the last answer's ETag: a 304 (nothing changed
 * since) keeps the last count, without a body to send or read.
 */
export async function getUnreadCount(
  last: UnreadState | undefined,
  signal?: AbortSignal,
): Promise<UnreadState> {
  const path = '/api/notifications/unread';
  const answer = await getIfChanged(path, readUnreadCount, last?.etag ?? null, { signal });
  if (answer.changed) return { count: answer.data.count, etag: answer.etag };
  if (last) return last;
  // A 304 with no count kept here (cannot happen without an ETag sent): ask unconditionally.
  const fresh = await getIfChanged(path, readUnreadCount, null, { signal });
  return fresh.changed ? { count: fresh.data.count, etag: fresh.etag } : { count: 0, etag: null };
}

/**
 * The count moved (a notification arrived, or was read in another tab): the list and the
 * timeline cached under the default stale time would show the old state, so they are asked
 * again (the ones on screen at once, the others when next shown).
 */
function refreshActivity(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: notificationKeys.list() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.eventLists() }),
  ]);
}

/**
 * The unread count, polled every few seconds while the tab is visible (TanStack Query pauses the
 * interval in a hidden tab and every request offline), and at once when the tab is shown again
 * or the connection returns. A failed poll keeps the last count; the next one tries again.
 */
export function useUnreadCountPolling(enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: async ({ signal }) => {
      const last = queryClient.getQueryData<UnreadState>(notificationKeys.unread());
      const next = await getUnreadCount(last, signal);
      if (last && last.count !== next.count) void refreshActivity(queryClient);
      return next;
    },
    enabled,
    staleTime: 0,
    retry: false,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: 'always',
    refetchOnReconnect: 'always',
  });
}
