import type { Upload } from '@sitelog/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { TileGridSkeleton } from '@/components/loading-state';
import { UPLOAD_TILE_ASPECT, UploadGrid } from './upload-tiles';

interface UploadsFeedProps {
  query: UseQueryResult<Upload[]>;
  /** Accessible name of the grid and of its loading placeholder. */
  label: string;
  /** Shown when the list is empty and there is no leading tile. */
  empty: ReactNode;
  leading?: ReactNode;
  skeletonCount?: number;
}

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
  if (query.isError) {
    return (
      <ErrorState
        error={query.error}
        title={`Could not load ${label.toLowerCase()}`}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (query.data.length === 0 && !leading) return <>{empty}</>;
  return <UploadGrid uploads={query.data} leading={leading} label={label} />;
}
