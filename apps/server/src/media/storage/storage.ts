import type { Readable } from 'node:stream';
import { AppError } from '../../errors.js';
import { isValidKey } from '../media-types.js';

/** One stored object, as listed. */
export interface StoredObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
}

/** An object opened for serving. */
export interface StoredObjectStream {
  body: Readable;
  size: number;
  /** From the key's extension (the server chose it from the sniffed type), on every driver. */
  contentType: string;
}

export interface PresignedGetOptions {
  /** Content type the response must carry (S3 `response-content-type`). */
  contentType: string;
  /** When set, the response is a download under this file name (`Content-Disposition: attachment`). */
  downloadName?: string;
  /** `Cache-Control` the response must carry (S3 `response-cache-control`). */
  cacheControl?: string;
  /** Time the signature is computed for; a fixed bucket start gives the same URL for a while. */
  signingDate: Date;
  expiresInSeconds: number;
}

/**
 * Where media bytes live: local disk by default, an S3-compatible bucket for several instances.
 * Keys are relative, slash-separated names made by the server (`newUploadKeys`).
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /**
   * Writes an object atomically: readers see the old object or the whole new one, never a part.
   * `source` is the bytes or a file to copy (the file is left in place).
   */
  put(key: string, source: Buffer | { filePath: string }, contentType: string): Promise<void>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the object for serving, or null when there is none. */
  stream(key: string): Promise<StoredObjectStream | null>;
  /**
   * The object's size, or null when there is none, without reading it (a HEAD on S3): enough to
   * answer a revalidation with 304.
   */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every object whose key starts with `prefix` (for the sweeper). On local disk this includes
   * leftovers of interrupted writes (hidden `.name.<random>.tmp` siblings), so they get swept.
   */
  list(prefix: string): AsyncIterable<StoredObjectInfo>;
  /**
   * A URL the browser can fetch the object from directly (S3 presigned GET), or null when the
   * server serves it itself (local disk: use a signed `/media/…` URL).
   */
  presignedGetUrl(key: string, options: PresignedGetOptions): Promise<string | null>;
  /**
   * Whether the storage can be used now, for the health check: resolves when it can, rejects
   * with StorageError('unavailable') when it cannot. Cheap (no object is written) and bounded in
   * time (the bucket's answer is awaited a few seconds at most, once).
   */
  check(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** Refuses keys that could escape the storage root or are not ours. */
export function assertValidKey(key: string): void {
  if (!isValidKey(key))
    throw new AppError(400, 'invalid_media_key', 'That media path is not valid.');
}
