// A pooled connection the bucket closes just as a request goes out on it (its keep-alive timeout
// firing at that moment; found by the cluster's PostgreSQL-restart test, where uploads resumed
// after a few idle seconds and an original's PUT failed with "socket hang up", answered 503
// storage_unavailable with the bucket up). The SDK sends such a request again when it can replay
// the body, never a file stream: the driver does, from a new stream.
import type { Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3.js';
import { createS3Storage, StorageError, type Storage } from './storage/index.js';

let s3: TestS3Server;
let storage: Storage;
let dir: string;
let file: string;
const bytes = Buffer.alloc(300_000, 7);

beforeAll(async () => {
  s3 = await startS3Server();
  storage = createS3Storage({
    kind: 's3',
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  dir = mkdtempSync(path.join(tmpdir(), 'sitelog-s3-drop-'));
  file = path.join(dir, 'original.jpg');
  writeFileSync(file, bytes);
});

afterAll(async () => {
  await storage.close();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

/**
 * From now on, a request arriving on a connection opened before (one kept alive in the client's
 * pool) is dropped (its connection destroyed, no answer), `times` times: what a client sees when
 * the server's keep-alive timeout closes the connection as the request is sent.
 */
function dropReusedConnections(times: number): { dropped: () => number } {
  const server = s3.httpServer();
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const opened = new WeakSet<Socket>();
  const onConnection = (socket: Socket) => opened.add(socket);
  server.on('connection', onConnection);
  let dropped = 0;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!opened.has(req.socket) && dropped < times) {
      dropped += 1;
      req.socket.destroy();
      return;
    }
    for (const handler of handlers) handler(req, res);
  });
  restore = () => {
    server.off('connection', onConnection);
    server.removeAllListeners('request');
    for (const handler of handlers) server.on('request', handler);
  };
  return { dropped: () => dropped };
}

describe('S3 PUT on a connection the bucket drops', () => {
  it('stores a file (a stream body) on a new connection', async () => {
    // A first request leaves a kept-alive connection in the pool.
    await storage.put('uploads/00/warm/preview.webp', Buffer.from('warm'), 'image/webp');
    const hook = dropReusedConnections(1);
    await storage.put('uploads/00/a/original.jpg', { filePath: file }, 'image/jpeg');
    expect(hook.dropped()).toBe(1);
    expect(await storage.get('uploads/00/a/original.jpg')).toEqual(bytes);
  });

  it('stores a buffer on a new connection (the SDK retries those itself)', async () => {
    await storage.put('uploads/00/warm/preview.webp', Buffer.from('warm'), 'image/webp');
    const hook = dropReusedConnections(1);
    await storage.put('uploads/00/b/preview.webp', bytes, 'image/webp');
    expect(hook.dropped()).toBe(1);
    expect(await storage.get('uploads/00/b/preview.webp')).toEqual(bytes);
  });

  it('gives up with StorageError unavailable when every connection is dropped', async () => {
    await storage.put('uploads/00/warm/preview.webp', Buffer.from('warm'), 'image/webp');
    // Every request dropped, on new connections too: the bucket is as good as down.
    const server = s3.httpServer();
    const handlers = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    let dropped = 0;
    server.on('request', (req: IncomingMessage) => {
      dropped += 1;
      req.socket.destroy();
    });
    restore = () => {
      server.removeAllListeners('request');
      for (const handler of handlers) server.on('request', handler);
    };
    const err: unknown = await storage
      .put('uploads/00/c/original.jpg', { filePath: file }, 'image/jpeg')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).reason).toBe('unavailable');
    // As many tries as the SDK makes for a body it can replay (3), not more.
    expect(dropped).toBe(3);
  });
});
