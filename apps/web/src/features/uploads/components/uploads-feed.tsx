import type { Upload } from '@sitelog/shared';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useId, useMemo, type ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { TileGridSkeleton } from '@/components/skeletons';
import { useSetActiveSequence, useViewerSequence } from '../viewer/viewer-context';
import { UPLOAD_TILE_ASPECT, UploadGrid } from './upload-tiles';

interface UploadsFeedProps {
  /** One list, or a paged feed whose pages read as one list (then "Load more" fetches the next). */
  query: UseQueryResult<Upload[]> | UseInfiniteQueryResult<Upload[]>;
  /** Accessible name of the grid and of its loading placeholder. */
  label: string;
  /** Shown when the list is empty and there is no leading tile. */
  empty: ReactNode;
  leading?: ReactNode;
  skeletonCount?: number;
  /** Tiles name their project: for feeds across projects. */
  showProject?: boolean;
  /** The level of the day headings: under the page's h1 directly, or under a section's h2. */
  headingLevel?: 'h2' | 'h3';
  /** Under day headings (the default), or one list in the order given (see UploadGrid). */
  byDay?: boolean;
  /** Draws the tiles' texts (search results mark the words searched for). */
  renderText?: (text: string) => ReactNode;
}

const EMPTY: readonly Upload[] = [];

const isPaged = (query: UploadsFeedProps['query']): query is UseInfiniteQueryResult<Upload[]> =>
  'fetchNextPage' in query;

/** An upload list query as a grid: skeleton tiles while loading, the error with RETRY, or empty. */
export function UploadsFeed({
  query,
  label,
  empty,
  leading,
  skeletonCount = 6,
  showProject = false,
  headingLevel,
  byDay,
  renderText,
}: UploadsFeedProps) {
  const paged = isPaged(query) ? query : undefined;
  // The first list to arrive is drawn in a deferred render, which React time-slices: the tiles
  // render in short slices the page stays responsive between, where a query's update alone
  // renders them in one task (Home's 18 tiles: ~400 ms on a 4× slowed phone, Lighthouse's longest
  // task on a first visit). Until then the skeleton stays. Later lists (a refetch, a next page)
  // draw at once, as does a feed mounted with its data in the cache: a deferred render that
  // other updates keep interrupting can lag seconds behind on a busy machine.
  const firstDrawn = useDeferredValue(query.data) !== undefined;
  const shown = firstDrawn ? query.data : undefined;
  const sequenceKey = useId();
  const fetchNextPage = paged?.fetchNextPage;
  const canLoadMore = paged?.hasNextPage === true && !paged.isFetchingNextPage;
  const loadMore = useCallback(() => {
    if (canLoadMore) void fetchNextPage?.();
  }, [canLoadMore, fetchNextPage]);
  // The viewer pages through this feed when a photo is opened from it.
  useViewerSequence(sequenceKey, {
    uploads: shown ?? EMPTY,
    hasMore: paged?.hasNextPage === true,
    loadMore,
  });
  const setActive = useSetActiveSequence();
  const onOpen = useCallback(() => setActive(sequenceKey), [setActive, sequenceKey]);
  // The same element while the data is on its way, so the render that brings the data (before
  // the deferred one draws it) passes over the skeleton instead of drawing it again.
  const skeleton = useMemo(
    () => (
      <TileGridSkeleton
        count={skeletonCount}
        aspectRatio={UPLOAD_TILE_ASPECT}
        label={`Loading ${label.toLowerCase()}…`}
      />
    ),
    [skeletonCount, label],
  );

  if (query.isPending || (shown === undefined && query.data !== undefined)) return skeleton;
  // A failed "Load more" keeps the pages already shown; only a failed first load replaces them.
  const nextPageFailed = paged?.isFetchNextPageError === true && query.data !== undefined;
  if (query.isError && !nextPageFailed) {
    return (
      <ErrorState
        error={query.error}
        title={`Could not load ${label.toLowerCase()}`}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const uploads = shown ?? EMPTY;
  if (uploads.length === 0 && !leading) return <>{empty}</>;
  const grid = (
    <UploadGrid
      uploads={uploads}
      leading={leading}
      label={label}
      showProject={showProject}
      headingLevel={headingLevel}
      onOpen={onOpen}
      byDay={byDay}
      renderText={renderText}
    />
  );
  if (!paged?.hasNextPage) return grid;
  return (
    <Stack spacing={2}>
      {grid}
      {nextPageFailed ? (
        <ErrorState error={query.error} title={`Could not load more ${label.toLowerCase()}`} />
      ) : null}
      <Stack direction="row" sx={{ justifyContent: 'center' }}>
        <Button
          variant="outlined"
          onClick={() => void paged.fetchNextPage()}
          loading={paged.isFetchingNextPage}
        >
          Load more
        </Button>
      </Stack>
    </Stack>
  );
}
