import { uploadListSchema, type Upload } from '@sitelog/shared';
import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * Uploads a project's or a member's feed loads at a time. Smaller than the server's default
 * (100) so the project page loads fast; "Load more" asks for the next page.
 */
export const FEED_PAGE_SIZE = 48;

/**
 * `path` with the paging query: `limit`, and `before` (the last upload seen) after page one, plus
 * the feed's own filters (`tag`).
 */
export function feedPageUrl(
  path: string,
  before: number | undefined,
  limit = FEED_PAGE_SIZE,
  filters: Record<string, string> = {},
) {
  const query = new URLSearchParams({ limit: String(limit), ...filters });
  if (before !== undefined) query.set('before', String(before));
  return `${path}?${query.toString()}`;
}

/**
 * One feed (GET `path`, newest first) as an infinite query: each page continues after the last
 * upload of the one before, while that one came back full. The pages read as one list.
 */
export const feedInfiniteOptions = (
  queryKey: readonly unknown[],
  path: string,
  filters: Record<string, string> = {},
) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) =>
      api.get(feedPageUrl(path, pageParam, FEED_PAGE_SIZE, filters), uploadListSchema, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage: Upload[]) =>
      lastPage.length < FEED_PAGE_SIZE ? undefined : lastPage.at(-1)?.id,
    select: (data: InfiniteData<Upload[], number | undefined>) => data.pages.flat(),
  });
