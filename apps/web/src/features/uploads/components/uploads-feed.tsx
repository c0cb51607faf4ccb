import type { Upload } from '@sitelog/shared';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { UseInfiniteQueryResult, UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { TileGridSkeleton } from '@/components/skeletons';
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
}

const isPaged = (query: UploadsFeedProps['query']): query is UseInfiniteQueryResult<Upload[]> =>
  'fetchNextPage' in query;

/** An upload list query as a grid: skeleton tiles while loading, the error with RETRY, or empty. */
export function UploadsFeed({ query, label, empty, leading, skeletonCount = 6 }: UploadsFeedProps) {
  if (query.isPending) {
    return (
      <TileGridSkeleton
        count={skeletonCount}
        aspectRatio={UPLOAD_TILE_ASPECT}
        label={`Loading ${label.toLowerCase()}…`}
      />
    );
  }
  const paged = isPaged(query) ? query : undefined;
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
  const uploads = query.data ?? [];
  if (uploads.length === 0 && !leading) return <>{empty}</>;
  const grid = <UploadGrid uploads={uploads} leading={leading} label={label} />;
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
