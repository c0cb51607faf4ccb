/**
 * Why storage could not do what was asked. The media layer knows nothing of HTTP: the uploads
 * module turns each reason into its status and message.
 * - `full`: the disk (or the bucket's backend) has no space left, or a quota is reached;
 * - `unavailable`: the bucket cannot be reached, times out or answers with a server error.
 */
export type StorageFailureReason = 'full' | 'unavailable';

export class StorageError extends Error {
  constructor(
    readonly reason: StorageFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }
}

const errorCode = (err: unknown): string =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';

/** A disk write failed because the file system is full or the account's quota is used up. */
export const isNoSpaceError = (err: unknown) => ['ENOSPC', 'EDQUOT'].includes(errorCode(err));

/** Rethrows a full-disk error as StorageError('full'), anything else as it is. */
export function throwDiskError(err: unknown): never {
  if (isNoSpaceError(err))
    throw new StorageError('full', 'no space left on the device', { cause: err });
  throw err;
}

// Errors of the socket under an S3 request: the bucket is down, restarting or unreachable.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The storage reason behind an S3 client error (after the SDK's own retries), or null when the
 * error is something else (a refused signature, a missing bucket: configuration, not an outage).
 * MinIO answers 507 `XMinioStorageFull` when its drives are full.
 */
export function s3FailureReason(err: unknown): StorageFailureReason | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : 0;
  if (status === 507 || e.name === 'XMinioStorageFull') return 'full';
  if (status >= 500) return 'unavailable';
  if (e.name === 'TimeoutError' || NETWORK_CODES.has(errorCode(err))) return 'unavailable';
  return null;
}
