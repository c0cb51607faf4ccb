import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { throwDiskError } from './storage/storage-error.js';

/** Suffix of upload temp files; the sweeper removes stale ones. */
export const TEMP_UPLOAD_SUFFIX = '.upload';

export interface TempFile {
  path: string;
  bytes: number;
}

/** The streamed file went over `maxBytes`; the upload form answers it as 413. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is over the limit of ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) callback(new FileTooLargeError(this.maxBytes));
    else callback(null, chunk);
  }
}

/**
 * Streams an upload to a fresh file in `tempDir` (created when missing), never holding it in
 * memory. More than `maxBytes` → FileTooLargeError and the partial file is removed; a full disk →
 * StorageError('full'); any other stream failure (client gone) removes it too and is rethrown.
 * The caller deletes the file when done (`removeFile`); the sweeper removes what a crash leaves
 * behind.
 */
export async function saveStreamToTempFile(
  source: Readable,
  options: { tempDir: string; maxBytes: number },
): Promise<TempFile> {
  await mkdir(options.tempDir, { recursive: true, mode: 0o700 }).catch(throwDiskError);
  // A source closed before its end (the multipart parser destroys the current file when the rest
  // of the form turns out broken or the client goes away) must fail the copy. `pipeline` alone
  // would wait forever for the 'end' of a source that had all its data pushed but not yet read.
  if (source.destroyed && !source.readableEnded)
    throw new Error('The upload stream was closed early.');
  const closedEarly = new AbortController();
  const onClose = () => {
    if (!source.readableEnded) closedEarly.abort(new Error('The upload stream was closed early.'));
  };
  source.once('close', onClose);
  const filePath = path.join(options.tempDir, `${randomUUID()}${TEMP_UPLOAD_SUFFIX}`);
  const limit = new ByteLimit(options.maxBytes);
  try {
    await pipeline(source, limit, createWriteStream(filePath, { flags: 'wx', mode: 0o600 }), {
      signal: closedEarly.signal,
    });
  } catch (err) {
    await removeFile(filePath);
    throwDiskError(err);
  } finally {
    source.off('close', onClose);
  }
  return { path: filePath, bytes: limit.bytes };
}

/** Deletes a file if it exists; never throws (cleanup must not hide the original error). */
export async function removeFile(filePath: string): Promise<void> {
  await rm(filePath, { force: true }).catch(() => undefined);
}
