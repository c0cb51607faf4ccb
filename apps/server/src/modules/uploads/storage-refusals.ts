// The HTTP answer when media storage fails: a full disk or an unreachable bucket is the
// server's state, not a bug, so the client gets a status it can act on instead of a 500.
import { AppError } from '../../errors.js';
import { StorageError } from '../../media/storage/index.js';

/** Seconds a client is asked to wait before trying an unreachable bucket again. */
export const STORAGE_RETRY_AFTER_SECONDS = 60;

/**
 * 507 `storage_full` when the disk has no space left (only an administrator can fix it), 503
 * `storage_unavailable` with `Retry-After` when the bucket cannot be reached. `action` says what
 * did not happen: an upload was not saved, or a stored photo could not be read.
 */
export function storageRefusal(err: StorageError, action: 'save' | 'read'): AppError {
  let refusal: AppError;
  if (err.reason === 'full') {
    refusal = new AppError(
      507,
      'storage_full',
      action === 'save'
        ? 'The server has run out of storage space, so this photo was not saved. Ask an administrator to free space, then try again.'
        : 'The server has run out of storage space. Ask an administrator to free space, then try again.',
    );
  } else {
    refusal = new AppError(
      503,
      'storage_unavailable',
      action === 'save'
        ? 'Photo storage cannot be reached right now, so this photo was not saved. Try again in a minute.'
        : 'Photo storage cannot be reached right now. Try again in a minute.',
      { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) },
    );
  }
  refusal.cause = err;
  return refusal;
}

/** A storage failure as its HTTP error; anything else as it is. */
export const storageAsHttpError = (err: unknown, action: 'save' | 'read'): unknown =>
  err instanceof StorageError ? storageRefusal(err, action) : err;
