import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { Upload } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useUpload } from '../api/get-upload';
import { isNotFound } from '@/lib/is-not-found';
import { UploadNotFound } from './upload-not-found';

/** The shape of an upload page while it loads: title, meta line, image box. */
export function UploadPageSkeleton({ label = 'Loading photo…' }: { label?: string }) {
  return (
    <OfflineFallback>
      <Stack role="status" aria-label={label} spacing={1.5} sx={{ maxWidth: 960 }}>
        <Skeleton variant="text" sx={{ fontSize: '1.75rem', width: '50%' }} />
        <Skeleton variant="text" sx={{ width: '35%' }} />
        <Skeleton variant="rounded" sx={{ width: '100%', height: 'auto', aspectRatio: '4 / 3' }} />
      </Stack>
    </OfflineFallback>
  );
}

function LoadingUpload() {
  useDocumentTitle('Photo');
  return <UploadPageSkeleton />;
}

function UploadLoadError({ query }: { query: ReturnType<typeof useUpload> }) {
  useDocumentTitle('Photo');
  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeader title="Photo" />
      <ErrorState
        error={query.error}
        title="Could not load this photo"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    </Box>
  );
}

function LoadedUpload({ id, children }: { id: number; children: (upload: Upload) => ReactNode }) {
  const query = useUpload(id);
  if (query.isPending) return <LoadingUpload />;
  if (query.isError) {
    if (isNotFound(query.error)) return <UploadNotFound />;
    return <UploadLoadError query={query} />;
  }
  return <>{children(query.data)}</>;
}

/**
 * Loads the upload of the route's id and renders `children` with it; a bad or unknown id shows
 * "Photo not found", a failed load its error with RETRY.
 */
export function UploadBoundary({
  id,
  children,
}: {
  id: number | null;
  children: (upload: Upload) => ReactNode;
}) {
  if (id === null) return <UploadNotFound />;
  return <LoadedUpload id={id}>{children}</LoadedUpload>;
}
