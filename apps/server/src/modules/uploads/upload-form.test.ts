import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { fileTooLarge, readUploadForm } from './upload-form.js';

const root = mkdtempSync(path.join(tmpdir(), 'sitelog-form-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A file part as @fastify/multipart hands it over, streaming `bytes` bytes in 64 KiB chunks. */
function filePartOf(bytes: number): Multipart {
  let left = bytes;
  const file = new Readable({
    read() {
      const size = Math.min(left, 64 * 1024);
      left -= size;
      this.push(size > 0 ? Buffer.alloc(size, 1) : null);
    },
  });
  return Object.assign(Object.create(null) as object, {
    type: 'file',
    fieldname: 'file',
    filename: 'photo.jpg',
    file: Object.assign(file, { truncated: false }),
  }) as unknown as Multipart;
}

async function* partsOf(...parts: Multipart[]): AsyncGenerator<Multipart> {
  for (const part of parts) yield part;
}

describe('the upload form', () => {
  it('words the 413 with the limit in megabytes', () => {
    expect(fileTooLarge(3 * 1024 * 1024)).toMatchObject({
      statusCode: 413,
      code: 'file_too_large',
      message: 'The file is too large (limit 3 MB).',
    });
    expect(fileTooLarge(1.5 * 1024 * 1024).message).toBe('The file is too large (limit 1.5 MB).');
  });

  it('answers a file streaming past the byte limit with 413 and keeps nothing', async () => {
    const tempDir = path.join(root, 'over');
    const err: unknown = await readUploadForm(partsOf(filePartOf(3 * 1024 * 1024)), {
      tempDir,
      maxBytes: 1024 * 1024,
      onDto: async () => {},
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      statusCode: 413,
      code: 'file_too_large',
      message: 'The file is too large (limit 1 MB).',
    });
    expect(readdirSync(tempDir)).toEqual([]);
  });
});
