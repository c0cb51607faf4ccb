// The page's one upload queue, wired to the browser: XHR with progress, Web Locks against a
// second sender (another tab, the service worker), the online/offline events, the session, and a
// BroadcastChannel so every tab shows the same queue. Loaded after the first render (top bar),
// so none of it is in the initial download.
import { uploadSchema } from '@sitelog/shared';
import { z } from 'zod';
import { api, ApiError, uploadMultipart } from '@/lib/api-client';
import { getSession, subscribeSession } from '@/lib/session';
import { QUEUE_CHANNEL, withPhotoLock } from './locks';
import { clearUser, forgetQueueSession } from './queue-db';
import {
  outcomeOf,
  UPLOAD_PATH,
  buildUploadForm,
  textUpdateBody,
  type SendOutcome,
} from './send-photo';
import { isUnsaved, UploadQueue, type QueueDeps } from './upload-queue';

/** No upload progress for this long (or no answer this long after the last byte): try again. */
const STALLED_SENDING_MS = 60_000;
const STALLED_PROCESSING_MS = 180_000;

function outcomeOfError(error: unknown): SendOutcome {
  if (error instanceof ApiError) {
    if (error.code === 'aborted') return { kind: 'aborted' };
    if (error.code === 'stalled') return { kind: 'retry', message: error.message };
    // A 2xx this page cannot read (a captive portal's page, a proxy's): not the server's answer.
    if (error.code === 'invalid_response') return { kind: 'retry', message: error.message };
    return outcomeOf(error.status, error.status === 0 ? null : error.message);
  }
  return { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
}

const channel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(QUEUE_CHANNEL);

const browserDeps: QueueDeps = {
  async send(photo, file, { onProgress, signal, token }) {
    // A connection that stops moving (a dead cell, a proxy that holds the request) is cut and
    // the photo tried again, rather than holding a slot for ever.
    const stall = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), ms);
    };
    const abort = () => stall.abort();
    signal.addEventListener('abort', abort, { once: true });
    watch(STALLED_SENDING_MS);
    try {
      const upload = await uploadMultipart(
        UPLOAD_PATH,
        buildUploadForm(photo, file),
        uploadSchema,
        {
          signal: stall.signal,
          token,
          onProgress: ({ fraction }) => {
            watch(fraction === 1 ? STALLED_PROCESSING_MS : STALLED_SENDING_MS);
            onProgress(fraction);
          },
        },
      );
      return { kind: 'sent', upload };
    } catch (error) {
      if (!signal.aborted && stall.signal.aborted)
        return { kind: 'retry', message: 'The connection stopped moving.' };
      return outcomeOfError(error);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    }
  },
  async saveText(photo, token) {
    try {
      const body = textUpdateBody(photo);
      const answer = await api.patch(
        `/api/upload/update/no-image/${photo.uploadId}`,
        z.unknown(),
        body,
        { token },
      );
      // The spec does not show what the update answers: read the upload as it now is if needed.
      const upload = uploadSchema.safeParse(answer);
      return {
        kind: 'sent',
        upload: upload.success
          ? upload.data
          : await api.get(`/api/upload/full/${photo.uploadId}`, uploadSchema, { token }),
      };
    } catch (error) {
      return outcomeOfError(error);
    }
  },
  isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
  now: () => Date.now(),
  random: () => Math.random(),
  newId: () => crypto.randomUUID(),
  withLock: withPhotoLock,
  requestBackgroundSync() {
    if (typeof navigator === 'undefined') return;
    // Evictable storage could lose a queued photo under pressure: ask to keep it.
    void navigator.storage?.persist?.().catch(() => false);
    if (!navigator.serviceWorker?.controller) return;
    void navigator.serviceWorker.ready
      .then((registration) => {
        const sync = (registration as ServiceWorkerRegistration & { sync?: SyncManagerLike }).sync;
        return sync?.register(QUEUE_CHANNEL);
      })
      .catch(() => undefined);
  },
  broadcast: () => channel?.postMessage('changed'),
};

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

export const uploadQueue = new UploadQueue(browserDeps);

let stopFollowing: (() => void) | null = null;

/** Starts the queue for the signed-in user and follows the session and the connection. */
export function startUploadQueue(): void {
  if (stopFollowing) return;
  let userId: number | null = null;
  const follow = () => {
    const session = getSession();
    if (session && session.user.id === userId) return;
    userId = session?.user.id ?? null;
    if (session) void uploadQueue.start(session.user.id, session.token).catch(() => undefined);
    else uploadQueue.stop();
  };
  const online = () => uploadQueue.setOnline(true);
  const offline = () => uploadQueue.setOnline(false);
  // Leaving the app (tab hidden, phone locked) with photos still waiting: the service worker
  // sends them when the browser fires the sync, even if the app is not opened again.
  const hidden = () => {
    if (document.visibilityState !== 'hidden') return;
    if (uploadQueue.getSnapshot().photos.some(isUnsaved)) browserDeps.requestBackgroundSync();
  };
  document.addEventListener('visibilitychange', hidden);
  const unsubscribe = subscribeSession(follow);
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  if (channel) channel.onmessage = () => void uploadQueue.refresh().catch(() => undefined);
  // The connection may have changed between this module's load and now, unseen by the listeners.
  uploadQueue.setOnline(browserDeps.isOnline());
  stopFollowing = () => {
    unsubscribe();
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
    document.removeEventListener('visibilitychange', hidden);
    if (channel) channel.onmessage = null;
    uploadQueue.stop();
  };
  follow();
}

/** Stops the queue in this page (the photos stay on the device): between tests. */
export function stopUploadQueue(): void {
  stopFollowing?.();
  stopFollowing = null;
}

/**
 * Logout: the user's queued photos, their text and the stored session leave the device. The
 * caller has asked first when photos were still waiting.
 */
export async function clearQueueForLogout(userIdToClear: number): Promise<void> {
  uploadQueue.stop();
  await clearUser(userIdToClear);
  await forgetQueueSession().catch(() => undefined);
  channel?.postMessage('changed');
}
