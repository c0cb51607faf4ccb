// The upload call over a real socket: what arrives on the wire, not what `inject` simulates.
// An encoded multipart body used to be handed to a decompression stream nobody read, and a
// client that stopped sending kept its socket for the 310 s connection timeout.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createMediaLinks } from '../media/links.js';
import { buildProject } from '../../test/factories.js';
import { createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';
import { jpegWithExif } from '../../test/images.js';
import {
  dtoPart,
  filePart,
  multipartBody,
  storedKeys,
  tempFiles,
  uploadRowCount,
} from '../../test/uploads.js';

const IDLE_MS = 400;

let ctx: TestContext;
let app: FastifyInstance;
let port: number;
let token: string;
let projectId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  // A second app on the same database with a short body-idle timeout, listening for real.
  app = await buildApp({
    config: ctx.config,
    db: ctx.db,
    links: createMediaLinks({ config: ctx.config, storage: ctx.storage }),
    storage: ctx.storage,
    images: ctx.images,
    uploadIdleTimeoutMs: IDLE_MS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
  const user = await signedInUser(ctx);
  token = user.token;
  projectId = (await buildProject(ctx, { creatorId: user.id })).id;
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

interface RawResponse {
  status: number;
  head: string;
  body: string;
  /** Milliseconds from the first byte sent until the server closed the socket. */
  closedAfterMs: number;
}

/**
 * Sends `head` and `bodyChunk` and then nothing more, the way a stalled or hostile client
 * does; resolves with the response once the server closes the socket, or rejects after
 * `limitMs` (the bound the test asserts).
 */
function rawRequest(head: string, bodyChunk: Buffer, limitMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${limitMs} ms`));
    }, limitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headText)?.[1] ?? 0),
        head: headText,
        body,
        closedAfterMs: Date.now() - started,
      });
    });
    socket.write(head);
    if (bodyChunk.length > 0) socket.write(bodyChunk);
  });
}

const requestHead = (headers: Record<string, string | number>) =>
  `POST /api/upload/autoupload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n${Object.entries(
    headers,
  )
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;

async function expectNothingLeft(rowsBefore: number, keysBefore: number): Promise<void> {
  await expect.poll(() => tempFiles(ctx), { timeout: 2000 }).toEqual([]);
  expect(await uploadRowCount(ctx)).toBe(rowsBefore);
  expect((await storedKeys(ctx)).length).toBe(keysBefore);
}

describe('upload body encoding', () => {
  it('refuses a gzip-encoded upload form with 415 at once, and keeps nothing', async () => {
    const rows = await uploadRowCount(ctx);
    const keys = (await storedKeys(ctx)).length;
    const form = multipartBody([dtoPart({ projectId }), filePart(await jpegWithExif())]);
    const gz = gzipSync(form.payload);
    const res = await rawRequest(
      requestHead({
        'Content-Type': form.headers['content-type'] ?? '',
        'Content-Encoding': 'gzip',
        'Content-Length': gz.length,
      }),
      gz,
    );
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'unsupported_content_encoding' });
    expect(JSON.parse(res.body).message).toMatch(/Content-Encoding/);
    expect(res.closedAfterMs).toBeLessThan(3000);
    await expectNothingLeft(rows, keys);
  });

  it('still accepts a gzip-encoded JSON body (decompressed as before)', async () => {
    const body = gzipSync(JSON.stringify({ project: { name: 'Gzipped', location: 'Kiel' } }));
    const res = await fetch(`http://127.0.0.1:${port}/api/project/create`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('Gzipped');
  });
});

describe('stalled upload bodies', () => {
  it('cuts off a form that stops mid-file with 408 and keeps nothing', async () => {
    const rows = await uploadRowCount(ctx);
    const keys = (await storedKeys(ctx)).length;
    const jpeg = await jpegWithExif();
    const form = multipartBody([dtoPart({ projectId }), filePart(jpeg)]);
    const sent = form.payload.subarray(0, form.payload.length - 200);
    const res = await rawRequest(
      requestHead({
        'Content-Type': form.headers['content-type'] ?? '',
        'Content-Length': form.payload.length,
      }),
      sent,
    );
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'upload_stalled' });
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(res.closedAfterMs).toBeLessThan(IDLE_MS + 3000);
    await expectNothingLeft(rows, keys);
  });

  it('cuts off a client that sends the headers and no body at all', async () => {
    const res = await rawRequest(
      requestHead({
        'Content-Type': 'multipart/form-data; boundary=----x',
        'Content-Length': 100_000,
      }),
      Buffer.alloc(0),
    );
    expect(res.status).toBe(408);
    expect(res.closedAfterMs).toBeLessThan(IDLE_MS + 3000);
  });

  it('lets a slow but steady upload finish', async () => {
    const jpeg = await jpegWithExif();
    const form = multipartBody([dtoPart({ projectId }), filePart(jpeg)]);
    const res = await new Promise<RawResponse>((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n', 2);
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
          head,
          body,
          closedAfterMs: Date.now() - started,
        });
      });
      socket.write(
        requestHead({
          'Content-Type': form.headers['content-type'] ?? '',
          'Content-Length': form.payload.length,
          Connection: 'close',
        }),
      );
      // Four pieces, each after a pause shorter than the idle limit: longer in total than it.
      const step = Math.ceil(form.payload.length / 4);
      let offset = 0;
      const sendNext = () => {
        socket.write(form.payload.subarray(offset, offset + step));
        offset += step;
        if (offset < form.payload.length) setTimeout(sendNext, IDLE_MS / 2);
      };
      sendNext();
    });
    expect(res.status, res.body).toBe(200);
  });
});
