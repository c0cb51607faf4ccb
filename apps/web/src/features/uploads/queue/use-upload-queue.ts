import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { QueuedPhoto } from './queue-db';
import { startUploadQueue, uploadQueue } from './runtime';
import { isPending, type QueueSnapshot } from './upload-queue';

/**
 * One part of the upload queue as React sees it, re-rendering only when that part changes
 * (`select` must return a value or a reference the queue keeps while unchanged: upload progress
 * changes many times a second). Starts the queue on first use.
 */
export function useQueueSelector<T>(select: (snapshot: QueueSnapshot) => T): T {
  useEffect(() => startUploadQueue(), []);
  return useSyncExternalStore(uploadQueue.subscribe, () => select(uploadQueue.getSnapshot()));
}

const selectPhotos = (snapshot: QueueSnapshot) => snapshot.photos;
const selectLoaded = (snapshot: QueueSnapshot) => snapshot.loaded;
const selectOnline = (snapshot: QueueSnapshot) => snapshot.online;

/** Every photo of the user's queue, sent ones of open visits included. */
export const useQueuedPhotos = () => useQueueSelector(selectPhotos);
/** False until the user's queue has been read from the device. */
export const useQueueLoaded = () => useQueueSelector(selectLoaded);
/** Whether the browser says it is online (the queue waits for signal when not). */
export const useQueueOnline = () => useQueueSelector(selectOnline);

/** The send progress of one photo (0..1, null unknown; undefined when not being sent here). */
export const usePhotoProgress = (clientId: string) =>
  useQueueSelector((snapshot) => snapshot.progress.get(clientId));

/** Photos still on the device (not yet acknowledged), and their total size in bytes. */
export function usePendingPhotos(): { photos: QueuedPhoto[]; bytes: number; loaded: boolean } {
  const photos = useQueuedPhotos();
  const loaded = useQueueLoaded();
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
