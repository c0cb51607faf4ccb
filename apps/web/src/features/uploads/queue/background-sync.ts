// The service worker's side of the queue (Background Sync): with the app closed, the browser
// wakes the worker when there is signal, and it sends what waits with the same queue logic as
// the page, over fetch, under the same per-photo locks. Nothing here touches the DOM or
// localStorage: the session comes from the queue's own storage.
import { uploadSchema, type Upload } from '@sitelog/shared/uploads';
import { QUEUE_CHANNEL, withPhotoLock } from './locks';
import { readQueueSession } from './queue-db';
import {
  buildUploadForm,
  outcomeOfResponse,
  textUpdateBody,
  UNREACHABLE_MESSAGE,
  UPLOAD_PATH,
  type SendOutcome,
} from './send-photo';
import { UploadQueue, type QueueDeps } from './upload-queue';

export { QUEUE_CHANNEL as SYNC_TAG };

const readUpload = (body: unknown): Upload | null => {
  const parsed = uploadSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
};

async function request(
  token: string,
  path: string,
  init: RequestInit & { signal?: AbortSignal },
): Promise<SendOutcome> {
  try {
    const response = await fetch(path, {
      ...init,
      headers: { ...init.headers, Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    return await outcomeOfResponse(response, readUpload);
  } catch {
    if (init.signal?.aborted) return { kind: 'aborted' };
    return { kind: 'retry', message: UNREACHABLE_MESSAGE };
  }
}

function workerDeps(): QueueDeps {
  const channel =
    typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(QUEUE_CHANNEL);
  return {
    send: (photo, file, { signal, token }) =>
      request(token, UPLOAD_PATH, { method: 'POST', body: buildUploadForm(photo, file), signal }),
    async saveText(photo, token) {
      const saved = await request(token, `/api/upload/update/no-image/${photo.uploadId}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(textUpdateBody(photo)),
      });
      if (
        saved.kind !== 'retry' ||
        saved.message !== 'The server sent an answer this page cannot read.'
      )
        return saved;
      // The update's answer is not shown by the spec: read the upload as it now is.
      return request(token, `/api/upload/full/${photo.uploadId}`, { method: 'GET' });
    },
    isOnline: () => navigator.onLine,
    now: () => Date.now(),
    random: () => Math.random(),
    newId: () => crypto.randomUUID(),
    withLock: withPhotoLock,
    requestBackgroundSync: () => undefined,
    broadcast: () => channel?.postMessage('changed'),
  };
}

/**
 * Sends the stored user's queue once, and rejects while photos are still waiting (no signal, a
 * failed try), so the browser fires the sync again later.
 */
export async function sendQueueInBackground({
  appOpen,
}: {
  /** A page of the app is open and visible: it sends the queue itself. */
  appOpen: boolean;
}): Promise<void> {
  // Two senders would each take two photos at once and wait on each other's locks; the open
  // page has the progress to show, and registers the sync again when it is hidden with photos
  // still waiting (the browser retries a failed sync only a few times).
  if (appOpen) return;
  const session = await readQueueSession();
  if (!session) return;
  const queue = new UploadQueue(workerDeps());
  // Read, never written back: a logout in a page meanwhile deletes it.
  await queue.start(session.userId, session.token, { storeSession: false });
  await queue.whenIdle();
  // Refused photos wait for the user, not for signal.
  const left = queue
    .getSnapshot()
    .photos.filter(
      (p) =>
        p.status === 'waiting' || p.status === 'sending' || (p.status === 'sent' && p.textDirty),
    ).length;
  queue.stop();
  if (left > 0) throw new Error(`${left} photos are still waiting to be sent.`);
}
