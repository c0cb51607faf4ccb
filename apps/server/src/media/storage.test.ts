import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { createMediaLinks } from './links.js';
import { newUploadKeys } from './media-types.js';
import {
  createLocalStorage,
  createS3Storage,
  createStorage,
  type Storage,
} from './storage/index.js';

const BUCKET = 'sitelog-test';
let workDir: string;
let s3server: S3rver;
let s3endpoint: string;
const drivers: Record<'local' | 's3', Storage> = {} as Record<'local' | 's3', Storage>;

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'sitelog-storage-'));
  s3server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(workDir, 's3rver'),
    configureBuckets: [{ name: BUCKET }],
  });
  const address = await s3server.run();
  s3endpoint = `http://127.0.0.1:${address.port}`;
  drivers.local = createLocalStorage(path.join(workDir, 'media'));
  drivers.s3 = createS3Storage({
    kind: 's3',
    bucket: BUCKET,
    endpoint: s3endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
});

afterAll(async () => {
  await Promise.all(Object.values(drivers).map((d) => d.close()));
  s3server.httpServer?.closeAllConnections();
  await s3server.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function listKeys(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys.sort();
}

const freshKeys = () =>
  newUploadKeys({ original: 'image/heic', formatted: 'image/jpeg', preview: 'image/webp' });

describe.each(['local', 's3'] as const)('%s storage', (kind) => {
  const storage = () => drivers[kind];

  it('passes its health check while it can be used', async () => {
    await expect(storage().check()).resolves.toBeUndefined();
  });

  it('stores bytes and gives them back whole, as a buffer and as a stream', async () => {
    const { formatted } = freshKeys();
    const bytes = Buffer.from('formatted image bytes');
    await storage().put(formatted, bytes, 'image/jpeg');
    expect(await storage().get(formatted)).toEqual(bytes);
    const opened = await storage().stream(formatted);
    expect(opened?.size).toBe(bytes.length);
    expect(opened?.contentType).toBe('image/jpeg');
    expect(await readAll(opened!.body)).toEqual(bytes);
  });

  it('copies a file into storage and leaves the file where it was', async () => {
    const { original } = freshKeys();
    const source = path.join(workDir, `${kind}-source.heic`);
    writeFileSync(source, Buffer.alloc(300_000, 7));
    await storage().put(original, { filePath: source }, 'image/heic');
    expect(existsSync(source)).toBe(true);
    expect((await storage().get(original))?.equals(readFileSync(source))).toBe(true);
    const opened = await storage().stream(original);
    expect(opened?.contentType).toBe('image/heic');
    opened?.body.destroy();
  });

  it('replaces an object on a second put', async () => {
    const { preview } = freshKeys();
    await storage().put(preview, Buffer.from('one'), 'image/webp');
    await storage().put(preview, Buffer.from('two'), 'image/webp');
    expect((await storage().get(preview))?.toString()).toBe('two');
  });

  it('sizes an object without reading it, and serves its type from its key', async () => {
    const { formatted } = freshKeys();
    expect(await storage().stat(formatted)).toBeNull();
    // Stored under a type that is not the key's (a copy made by another tool): served as the
    // key says, like local disk and presigned URLs.
    await storage().put(formatted, Buffer.from('twelve bytes'), 'application/octet-stream');
    expect(await storage().stat(formatted)).toEqual({ size: 12 });
    const opened = await storage().stream(formatted);
    expect(opened?.contentType).toBe('image/jpeg');
    opened?.body.destroy();
  });

  it('answers null for a missing object and deletes idempotently', async () => {
    const { preview } = freshKeys();
    expect(await storage().get(preview)).toBeNull();
    expect(await storage().stream(preview)).toBeNull();
    await storage().delete(preview);
    await storage().put(preview, Buffer.from('x'), 'image/webp');
    await storage().delete(preview);
    expect(await storage().get(preview)).toBeNull();
  });

  it('lists the objects under a prefix with their size and age', async () => {
    const keys = freshKeys();
    const folder = keys.preview.slice(0, keys.preview.lastIndexOf('/') + 1);
    const before = Date.now() - 5_000;
    await storage().put(keys.preview, Buffer.from('p'), 'image/webp');
    await storage().put(keys.formatted, Buffer.from('ff'), 'image/jpeg');
    const other = freshKeys();
    await storage().put(other.preview, Buffer.from('other'), 'image/webp');

    const listed: { key: string; size: number; lastModified: Date }[] = [];
    for await (const object of storage().list(folder)) listed.push(object);
    expect(listed.map((o) => o.key).sort()).toEqual([keys.formatted, keys.preview].sort());
    expect(listed.find((o) => o.key === keys.formatted)?.size).toBe(2);
    for (const o of listed) expect(o.lastModified.getTime()).toBeGreaterThan(before);
    expect(await listKeys(storage(), 'uploads/')).toEqual(
      expect.arrayContaining([other.preview, keys.preview]),
    );
  });

  it.each([
    '../secret',
    '/etc/passwd',
    'uploads/../../x',
    'uploads//x',
    'uploads\\x',
    '',
    'a/./b',
    'a b',
  ])('refuses the key %j', async (key) => {
    await expect(storage().put(key, Buffer.from('x'), 'image/jpeg')).rejects.toBeInstanceOf(
      AppError,
    );
    await expect(storage().get(key)).rejects.toBeInstanceOf(AppError);
    await expect(storage().delete(key)).rejects.toBeInstanceOf(AppError);
  });
});

describe('local storage', () => {
  it('writes through a temp file and leaves none behind', async () => {
    const dir = path.join(workDir, 'atomic');
    const storage = createLocalStorage(dir);
    const { formatted } = freshKeys();
    const big = Buffer.alloc(2_000_000, 1);
    const small = Buffer.alloc(10, 2);
    // Racing writers: a reader only ever sees one whole version.
    await Promise.all([
      storage.put(formatted, big, 'image/jpeg'),
      storage.put(formatted, small, 'image/jpeg'),
      storage.put(formatted, big, 'image/jpeg'),
    ]);
    const stored = await storage.get(formatted);
    expect(stored?.equals(big) || stored?.equals(small)).toBe(true);
    const folder = path.join(dir, ...formatted.split('/').slice(0, -1));
    expect(readdirSync(folder)).toEqual(['formatted.jpg']);
  });

  it('removes an upload folder once its last file is deleted', async () => {
    const dir = path.join(workDir, 'cleanup');
    const storage = createLocalStorage(dir);
    const keys = freshKeys();
    await storage.put(keys.preview, Buffer.from('p'), 'image/webp');
    await storage.put(keys.original, Buffer.from('o'), 'image/heic');
    const folder = path.join(dir, ...keys.preview.split('/').slice(0, -1));
    await storage.delete(keys.preview);
    expect(existsSync(folder)).toBe(true);
    await storage.delete(keys.original);
    expect(existsSync(folder)).toBe(false);
  });

  it('keeps photos private to the server account: folders 0700, files 0600', async () => {
    const dir = path.join(workDir, 'private', 'media');
    const storage = createLocalStorage(dir);
    const keys = freshKeys();
    const source = path.join(workDir, 'private-source.heic');
    writeFileSync(source, 'o');
    chmodSync(source, 0o644);
    await storage.put(keys.preview, Buffer.from('p'), 'image/webp');
    await storage.put(keys.original, { filePath: source }, 'image/heic');
    const mode = (p: string) => statSync(p).mode & 0o777;
    const folder = path.join(dir, ...keys.preview.split('/').slice(0, -1));
    expect(mode(dir).toString(8)).toBe('700');
    expect(mode(path.dirname(folder)).toString(8)).toBe('700');
    expect(mode(folder).toString(8)).toBe('700');
    expect(mode(path.join(dir, ...keys.preview.split('/'))).toString(8)).toBe('600');
    expect(mode(path.join(dir, ...keys.original.split('/'))).toString(8)).toBe('600');
  });

  it('fails its health check when the media folder is gone', async () => {
    const dir = path.join(workDir, 'checked-media');
    const local = createLocalStorage(dir);
    rmSync(dir, { recursive: true });
    await expect(local.check()).rejects.toMatchObject({
      name: 'StorageError',
      reason: 'unavailable',
    });
  });

  it('has no presigned URLs: media is served by the app', async () => {
    const expiry = { signingDate: new Date(), expiresInSeconds: 60, contentType: 'image/jpeg' };
    expect(await drivers.local.presignedGetUrl(freshKeys().formatted, expiry)).toBeNull();
  });

  it('is what createStorage builds from the default configuration', () => {
    const storage = createStorage({
      storage: { kind: 'local', dir: path.join(workDir, 'factory') },
    });
    expect(storage.kind).toBe('local');
    expect(existsSync(path.join(workDir, 'factory'))).toBe(true);
  });
});

describe('s3 storage', () => {
  const bucketAt = (endpoint: string) =>
    createS3Storage({
      kind: 's3',
      bucket: BUCKET,
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });

  it('fails its health check when nothing listens', async () => {
    const refused = bucketAt('http://127.0.0.1:1');
    try {
      await expect(refused.check()).rejects.toMatchObject({ reason: 'unavailable' });
    } finally {
      await refused.close();
    }
  });

  it('fails its health check when the bucket accepts the connection and never answers', async () => {
    // The check gives up after a few seconds; the uploads' client would wait 3 × 20 s.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const hung = bucketAt(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    try {
      await expect(hung.check()).rejects.toMatchObject({ reason: 'unavailable' });
    } finally {
      await hung.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('hands out presigned GET URLs that serve the exact content type', async () => {
    const { formatted } = freshKeys();
    await drivers.s3.put(formatted, Buffer.from('jpeg bytes'), 'image/jpeg');
    const url = await drivers.s3.presignedGetUrl(formatted, {
      contentType: 'image/jpeg',
      signingDate: new Date(),
      expiresInSeconds: 600,
    });
    expect(url).toMatch(new RegExp(`^${s3endpoint}/${BUCKET}/uploads/`));
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(await res.text()).toBe('jpeg bytes');
  });

  it('serves originals as an attachment under their download name', async () => {
    const { original } = freshKeys();
    await drivers.s3.put(original, Buffer.from('heic bytes'), 'image/heic');
    const url = await drivers.s3.presignedGetUrl(original, {
      contentType: 'image/heic',
      downloadName: 'Façade north.heic',
      signingDate: new Date(),
      expiresInSeconds: 600,
    });
    const res = await fetch(url!);
    expect(res.headers.get('content-type')).toBe('image/heic');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Fa_ade north.heic"; filename*=UTF-8''Fa%C3%A7ade%20north.heic`,
    );
  });

  it('refuses a presigned URL once it has expired', async () => {
    const { preview } = freshKeys();
    await drivers.s3.put(preview, Buffer.from('webp'), 'image/webp');
    const url = await drivers.s3.presignedGetUrl(preview, {
      contentType: 'image/webp',
      signingDate: new Date(Date.now() - 3_600_000),
      expiresInSeconds: 60,
    });
    expect((await fetch(url!)).status).toBe(403);
  });

  it('gives the same presigned link within a time bucket (browser caching) via MediaLinks', async () => {
    const { preview } = freshKeys();
    await drivers.s3.put(preview, Buffer.from('webp'), 'image/webp');
    let now = Date.UTC(2030, 0, 1, 10, 0, 5);
    const links = createMediaLinks({
      config: { secret: 'x'.repeat(32), mediaUrlTtlSeconds: 6 * 3600, mediaDelivery: 'bucket' },
      storage: drivers.s3,
      now: () => now,
    });
    const first = await links.url(preview, { sessionId: 1 });
    now += 20 * 60_000;
    expect(await links.url(preview, { sessionId: 1 })).toBe(first);
    now += 60 * 60_000;
    expect(await links.url(preview, { sessionId: 1 })).not.toBe(first);
    expect(first).toContain('X-Amz-Signature=');
  });

  it('asks the bucket for the same cache policy as /media: short for images, none for originals', async () => {
    const keys = freshKeys();
    await drivers.s3.put(keys.preview, Buffer.from('webp'), 'image/webp');
    await drivers.s3.put(keys.original, Buffer.from('heic'), 'image/heic');
    const links = createMediaLinks({
      config: { secret: 'x'.repeat(32), mediaUrlTtlSeconds: 6 * 3600, mediaDelivery: 'bucket' },
      storage: drivers.s3,
    });
    const preview = await fetch(await links.url(keys.preview, { sessionId: 1 }));
    expect(preview.headers.get('cache-control')).toBe('private, max-age=300, must-revalidate');
    const original = await fetch(await links.url(keys.original, { sessionId: 1 }));
    expect(original.headers.get('cache-control')).toBe('private, no-store');
    await Promise.all([preview.arrayBuffer(), original.arrayBuffer()]);
  });
});
