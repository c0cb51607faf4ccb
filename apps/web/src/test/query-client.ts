import { createQueryClient } from '@/app/query-client';

/**
 * The app's query client, as tests use it: the same retries of a failed load (two, and none for
 * a 4xx), 20 ms apart instead of 1 s and 2 s, so a test of a failed load does not wait three
 * seconds for the error to show.
 */
export function testQueryClient() {
  return createQueryClient({ retryDelay: 20 });
}
