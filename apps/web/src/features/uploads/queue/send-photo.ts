// One queued photo to the server: POST /api/upload/autoupload with its idempotency key, and
// what the answer means for the queue. Shared by the page (XHR, for progress) and the service
// worker (fetch, for Background Sync).
import type { UpdateUploadRequest, Upload } from '@sitelog/shared';
import type { QueuedPhoto } from './queue-db';

export type SendOutcome =
  | { kind: 'sent'; upload: Upload }
  /** Sending it again cannot help: not an image, too large, the project is gone… */
  | { kind: 'refused'; message: string }
  /** No answer, or a passing failure (server busy or down): try again later. */
  | { kind: 'retry'; message: string }
  /** The session is over: keep the photo until the user signs in again. */
  | { kind: 'unauthorized' }
  | { kind: 'aborted' };

export const UPLOAD_PATH = '/api/upload/autoupload';

export const UNREACHABLE_MESSAGE = 'Could not reach the server.';

/**
 * The spec's multipart form: the `file` part first, then `createUploadDto` with the key (and the
 * tags, when the photo has any).
 */
export function buildUploadForm(photo: QueuedPhoto, file: Blob): FormData {
  const form = new FormData();
  form.append('file', file, photo.fileName);
  const tags = photo.tags ?? [];
  form.append(
    'createUploadDto',
    JSON.stringify({
      name: photo.name,
      description: photo.description,
      projectId: photo.projectId,
      clientId: photo.clientId,
      ...(tags.length > 0 ? { tags } : {}),
    }),
  );
  return form;
}

/**
 * The PATCH body that saves text typed after a photo was sent: its name and description, and its
 * tags only when they were changed here since (`tagsDirty`): the update replaces the whole list,
 * so sending the record's copy otherwise would undo tags changed elsewhere meanwhile.
 */
export function textUpdateBody(photo: QueuedPhoto): UpdateUploadRequest {
  return {
    upload: {
      name: photo.name,
      description: photo.description,
      projectId: photo.projectId,
      ...(photo.tagsDirty === true && photo.tags ? { tags: photo.tags } : {}),
    },
  };
}

/** Statuses that a later try may turn into a success. */
const PASSING = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * What an HTTP status means for a queued photo (0: no answer). The server's `message` is kept
 * for the queue's list.
 */
export function outcomeOf(
  status: number,
  message: string | null,
): Exclude<SendOutcome, { kind: 'sent' } | { kind: 'aborted' }> {
  if (status === 0) return { kind: 'retry', message: UNREACHABLE_MESSAGE };
  if (status === 401) return { kind: 'unauthorized' };
  if (PASSING.has(status) || status >= 500)
    return { kind: 'retry', message: message ?? `The server is not ready (${status}).` };
  return { kind: 'refused', message: message ?? `The server refused the photo (${status}).` };
}

/** Backoff before try `attempts + 1`: 2 s, 4 s, 8 s… up to a minute, ±20 % so tabs spread out. */
export function backoffMs(attempts: number, random = Math.random()): number {
  const base = Math.min(60_000, 2_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random));
}

/** A fetch answer as an outcome (the service worker's sender); `sent` when it holds an upload. */
export async function outcomeOfResponse(
  response: Response,
  readUpload: (body: unknown) => Upload | null,
): Promise<SendOutcome> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  if (response.ok) {
    const upload = readUpload(body);
    return upload
      ? { kind: 'sent', upload }
      : { kind: 'retry', message: 'The server sent an answer this page cannot read.' };
  }
  const message =
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : null;
  return outcomeOf(response.status, message);
}
