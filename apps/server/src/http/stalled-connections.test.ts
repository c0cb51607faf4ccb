import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { endStalledConnections } from './stalled-connections.js';

const STALLED_MS = 600;
const CHECK_EVERY_MS = 50;

const CHUNK = Buffer.alloc(64 * 1024);

/** 4 GiB of zeros, sent as they are read: far more than loopback's socket buffers hold. */
function bigDownload(): Readable {
  let chunks = (4 * 1024 ** 3) / CHUNK.length;
  return new Readable({
    read() {
      this.push(chunks-- > 0 ? CHUNK : null);
    },
  });
}

let app: FastifyInstance;
let stop: () => void;
let never: Promise<void>;
let answerAll: () => void;

async function start(): Promise<number> {
  app = Fastify();
  never = new Promise((resolve) => (answerAll = resolve));
  app.get('/download', (_request, reply) =>
    reply.type('application/octet-stream').send(bigDownload()),
  );
  app.get('/hangs', async () => {
    await never;
    return { late: true };
  });
  app.get('/small', () => ({ ok: true }));
  stop = endStalledConnections(app.server, {
    stalledMs: STALLED_MS,
    checkEveryMs: CHECK_EVERY_MS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

afterEach(async () => {
  stop();
  answerAll();
  await app.close();
});

/**
 * A raw connection that sends `GET path` and reads only when told. `closed` is when the server
 * ended its side (a paused client would not notice until it reads again), in ms after it opened.
 */
async function request(
  port: number,
  path: string,
): Promise<{ socket: Socket; closed: Promise<number> }> {
  const accepted = new Promise<Socket>((resolve) => app.server.once('connection', resolve));
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const serverSide = await accepted;
  const opened = Date.now();
  const closed = new Promise<number>((resolve) =>
    serverSide.once('close', () => resolve(Date.now() - opened)),
  );
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  return { socket, closed };
}

/** `promise`'s value, or 'still open' after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'still open'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still open'>((resolve) => {
    timer = setTimeout(() => resolve('still open'), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('endStalledConnections', () => {
  it('ends a download whose client stopped reading, once it has made no progress for the limit', async () => {
    const port = await start();
    const { socket, closed } = await request(port, '/download');
    // Read a little, then stop: the server's writes fill the socket buffers and stall.
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.pause();
    const lasted = await within(closed, 20_000);
    expect(lasted).not.toBe('still open');
    expect(lasted).toBeGreaterThanOrEqual(STALLED_MS);
  });

  it('keeps a download that goes on moving, though in fits and starts', async () => {
    const port = await start();
    const { socket, closed } = await request(port, '/download');
    socket.pause();
    // Reads in short bursts, 20 ms every 200 ms, for five times the limit: the server's writes
    // keep moving, though the client is mostly not reading.
    const reader = setInterval(() => {
      socket.resume();
      setTimeout(() => socket.pause(), 20);
    }, 200);
    try {
      expect(await within(closed, STALLED_MS * 5)).toBe('still open');
    } finally {
      clearInterval(reader);
      socket.destroy();
    }
  });

  it('ends a request that never gets its answer', async () => {
    const port = await start();
    const { closed } = await request(port, '/hangs');
    const lasted = await within(closed, 20_000);
    expect(lasted).not.toBe('still open');
    expect(lasted).toBeGreaterThanOrEqual(STALLED_MS);
  });

  it('leaves connections alone once stopped', async () => {
    const port = await start();
    stop();
    const { socket, closed } = await request(port, '/hangs');
    try {
      expect(await within(closed, STALLED_MS * 3)).toBe('still open');
    } finally {
      socket.destroy();
    }
  });

  it('answers small calls as before', async () => {
    const port = await start();
    const res = await fetch(`http://127.0.0.1:${port}/small`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
