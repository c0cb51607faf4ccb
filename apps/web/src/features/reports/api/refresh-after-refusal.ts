import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { reportKeys } from './keys';

/**
 * After a change to report `reportId` was refused as out of date: a 404 (deleted elsewhere) or
 * a 409 (its project archived, photos the PDF holds deleted or moved, one already running). The
 * report and the lists are asked again, so the page shows it gone (its not-found state) or as it
 * is now (read-only, RE-GENERATE explained), instead of what was cached.
 */
export function refreshAfterRefusal(
  queryClient: QueryClient,
  reportId: number,
  error: unknown,
): void {
  if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 409)) return;
  void queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
  void queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
}

/**
 * The changes of this feature are sent at once, online or not: offline they fail straight away
 * with the "could not reach the server" message, instead of TanStack Query's default of pausing
 * them (a spinner that never ends) and sending them on its own when the connection returns,
 * long after the person gave up. The screens disable them offline too.
 */
export const sendNow = { networkMode: 'always' } as const;
