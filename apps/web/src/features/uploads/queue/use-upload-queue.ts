import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { QueuedPhoto } from './queue-db';
import { startUploadQueue, uploadQueue } from './runtime';
import { isPending, type QueueSnapshot } from './upload-queue';

/** The upload queue as React sees it; starts the queue on first use. */
export function useUploadQueue(): QueueSnapshot {
  useEffect(() => startUploadQueue(), []);
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot);
}

/** Photos still on the device (not yet acknowledged), and their total size in bytes. */
export function usePendingPhotos(): { photos: QueuedPhoto[]; bytes: number; loaded: boolean } {
  const { photos, loaded } = useUploadQueue();
  return useMemo(() => {
    const pending = photos.filter(isPending);
    return { photos: pending, bytes: pending.reduce((sum, p) => sum + p.size, 0), loaded };
  }, [photos, loaded]);
}

/** An object URL for a queued photo's file, revoked when the component lets go of it. */
export function useObjectUrl(blob: Blob | null): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}
