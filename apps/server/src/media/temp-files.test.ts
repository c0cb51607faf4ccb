import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.js';
import { FileTooLargeError, removeFile, saveStreamToTempFile } from './temp-files.js';

const root = mkdtempSync(path.join(tmpdir(), 'sitelog-temp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function chunks(count: number, size: number): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) yield Buffer.alloc(size, i % 256);
    })(),
  );
}

describe('saveStreamToTempFile', () => {
  it('streams an upload to a new file in the temp dir, creating the dir', async () => {
    const tempDir = path.join(root, 'a', 'tmp');
    const saved = await saveStreamToTempFile(chunks(10, 1000), { tempDir, maxBytes: 10_000 });
    expect(saved.bytes).toBe(10_000);
    expect(path.dirname(saved.path)).toBe(tempDir);
    expect(readFileSync(saved.path).length).toBe(10_000);
    // An upload in flight is the customer's photo: private to the server account.
    expect((statSync(tempDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(saved.path).mode & 0o777).toString(8)).toBe('600');
    await removeFile(saved.path);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('stops at the byte limit, saying so, and keeps nothing', async () => {
    const tempDir = path.join(root, 'b');
    const err: unknown = await saveStreamToTempFile(chunks(100, 1024 * 1024), {
      tempDir,
      maxBytes: 3 * 1024 * 1024,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect(err).toMatchObject({ maxBytes: 3 * 1024 * 1024 });
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('removes the partial file when the client goes away', async () => {
    const tempDir = path.join(root, 'c');
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('aborted'));
      },
    });
    await expect(saveStreamToTempFile(broken, { tempDir, maxBytes: 1e6 })).rejects.toThrow(
      'aborted',
    );
    expect(readdirSync(tempDir)).toEqual([]);
  });
});

describe('createLimiter', () => {
  it('runs at most N tasks at once, in arrival order, and refuses beyond the queue limit', async () => {
    const limiter = createLimiter(2, { maxQueue: 2, onFull: () => new Error('full') });
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const task = (id: number) => () =>
      new Promise<number>((resolve) => {
        started.push(id);
        releases[id] = () => resolve(id);
      });
    const runs = [1, 2, 3, 4].map((id) => limiter.run(task(id)));
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect([limiter.active, limiter.queued]).toEqual([2, 2]);
    await expect(limiter.run(task(5))).rejects.toThrow('full');

    releases[2]?.();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([1, 2, 3]);
    releases[1]?.();
    releases[3]?.();
    await Promise.all([runs[0], runs[2]]);
    await Promise.resolve();
    releases[4]?.();
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4]);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('frees the slot when a task fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(() => Promise.resolve('next'))).toBe('next');
  });
});
