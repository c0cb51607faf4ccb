import { brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, LARGE_RESPONSE, registerCompression } from './compression.js';

const big = JSON.stringify({ text: 'site photo '.repeat(COMPRESS_MIN_BYTES / 5) });

/** A bare app with one LARGE_RESPONSE route that sets the given headers before answering. */
async function appWith(headers: Record<string, string | string[]>) {
  const app = Fastify();
  await registerCompression(app);
  app.get('/big', { compress: LARGE_RESPONSE }, async (_request, reply) => {
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    return reply.type('application/json').send(big);
  });
  return app;
}

describe('compression of large answers', () => {
  it('adds accept-encoding to a Vary the route set, once', async () => {
    for (const [vary, expected] of [
      ['origin', 'origin, accept-encoding'],
      ['Accept-Encoding', 'Accept-Encoding'],
      ['origin, accept-encoding', 'origin, accept-encoding'],
      ['*', '*'],
    ] as const) {
      const app = await appWith({ vary });
      const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toBe(expected);
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(big);
      await app.close();
    }
  });

  it('compresses an answer marked identity, and leaves one already encoded alone', async () => {
    const identity = await appWith({ 'content-encoding': 'identity' });
    const res = await identity.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    await identity.close();

    const encoded = await appWith({ 'content-encoding': 'deflate' });
    const same = await encoded.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(same.headers['content-encoding']).toBe('deflate');
    expect(same.body).toBe(big);
    await encoded.close();
  });
});
