// Response compression where it pays, request decompression where there is a body.
import { constants } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies smaller than this go out as they are. A feed's JSON is mostly signed media URLs, whose
 * signatures do not compress, so compressing an 18-photo feed (~13 KB) costs more server time
 * than it saves on the wire; the large lists (all projects, members, 50-photo feeds) shrink
 * 4–8× and pay for it.
 */
export const COMPRESS_MIN_BYTES = 24 * 1024;

/**
 * Brotli at quality 4 (the default, 11, is for static files: ~10× the CPU for a few percent
 * less), gzip at level 5; br first, then gzip.
 */
const ENCODING = {
  encodings: ['br', 'gzip'],
  brotliOptions: {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 4,
    },
  },
  zlibOptions: { level: 5 },
} satisfies FastifyCompressOptions;

/**
 * The route option for a response that can be large: `compress: LARGE_RESPONSE`. Every other
 * route skips the plugin's hooks altogether. (A route's options replace the plugin's, so they
 * carry the encodings too.)
 */
export const LARGE_RESPONSE = { ...ENCODING, threshold: COMPRESS_MIN_BYTES };

/** The built web app's files: text that shrinks 3–4×, from 1 KB. */
const WEB_FILES = { ...ENCODING, threshold: 1024 };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Compression only on the routes that ask for it (`LARGE_RESPONSE`). A JSON body sent with a
 * Content-Encoding is still decoded, on routes that take a body; GET and DELETE routes skip that
 * hook.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook, which reads `decompress`.
  app.addHook('onRoute', (route) => {
    // API routes compress only when they opt in; the web app's files (JavaScript, CSS, HTML,
    // served by @fastify/static) always do. Without an explicit `false` the plugin still hangs
    // a hook on every route (to decorate the reply).
    if (route.compress === undefined)
      route.compress = /^\/(api|media)(\/|$)/.test(route.url) ? false : WEB_FILES;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => BODY_METHODS.has(m)) && route.decompress === undefined)
      route.decompress = false;
  });
  await app.register(fastifyCompress, { ...ENCODING, global: false, globalDecompression: true });
}
