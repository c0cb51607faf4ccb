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
import { outcomeOf, UPLOAD_PATH, buildUploadForm, type SendOutcome } from './send-photo';
import { UploadQueue, type QueueDeps } from './upload-queue';

function outcomeOfError(error: unknown): SendOutcome {
  if (error instanceof ApiError) {
    if (error.code === 'aborted') return { kind: 'aborted' };
    return outcomeOf(error.status, error.status === 0 ? null : error.message);
  }
  return { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
}

const channel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(QUEUE_CHANNEL);

const browserDeps: QueueDeps = {
  async send(photo, file, { onProgress, signal }) {
    try {
      const upload = await uploadMultipart(
        UPLOAD_PATH,
        buildUploadForm(photo, file),
        uploadSchema,
        {
          signal,
          onProgress: ({ fraction }) => onProgress(fraction),
        },
      );
      return { kind: 'sent', upload };
    } catch (error) {
      return outcomeOfError(error);
    }
  },
  async saveText(photo) {
    try {
      const body = {
        upload: { name: photo.name, description: photo.description, projectId: photo.projectId },
      };
      const answer = await api.patch(
        `/api/upload/update/no-image/${photo.uploadId}`,
        z.unknown(),
        body,
      );
      const upload = uploadSchema.safeParse(answer);
      return upload.success
        ? { kind: 'sent', upload: upload.data }
        : {
            kind: 'sent',
            upload: {
              ...(await api.get(`/api/upload/full/${photo.uploadId}`, uploadSchema)),
            },
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
    if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return;
    void navigator.serviceWorker.ready
      .then((registration) => {
        const sync = (registration as ServiceWorkerRegistration & { sync?: SyncManagerLike }).sync;
        return sync?.register(QUEUE_CHANNEL);
      })
      .catch(() => undefined);
    // Evictable storage could lose a queued photo under pressure: ask to keep it.
    void navigator.storage?.persist?.().catch(() => false);
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
  const unsubscribe = subscribeSession(follow);
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  if (channel) channel.onmessage = () => void uploadQueue.refresh().catch(() => undefined);
  stopFollowing = () => {
    unsubscribe();
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
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
