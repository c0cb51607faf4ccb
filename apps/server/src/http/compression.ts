// Response compression where it pays, request decompression where there is a body.
import { brotliCompress, constants, gzip } from 'node:zlib';
import fastifyCompress, { type FastifyCompressOptions } from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Bodies smaller than this go out as they are. A feed's JSON is mostly signed media URLs, whose
 * signatures do not compress, so compressing an 18-photo feed (~13 KB) costs more server time
 * than it saves on the wire; the large lists (all projects, members, 50-photo feeds) shrink
 * 4–8× and pay for it.
 */
export const COMPRESS_MIN_BYTES = 24 * 1024;

/**
 * Brotli at quality 4 (the default, 11, is for static files: ~10× the CPU for a few percent
 * less), gzip at level 5; br first, then gzip. For the web app's files, through
 * @fastify/compress.
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
 * The route option for an API answer that can be large: `compress: LARGE_RESPONSE`. Such a route
 * gets `compressLargeResponse` below instead of the plugin's hooks.
 */
export const LARGE_RESPONSE = { ...ENCODING, threshold: COMPRESS_MIN_BYTES };

/** The built web app's files: text that shrinks 3–4×, from 1 KB. */
const WEB_FILES = { ...ENCODING, threshold: 1024 };

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Levels for JSON answers, by size. A feed is mostly signed URLs, which do not compress: a
 * 48-photo feed (47 KB) is 8,083 bytes at brotli quality 1 and 7,960 at 4, for a third of the CPU
 * (110 µs against 310 µs here). A long list of projects is repetitive text, where the higher
 * level pays: 2 MB of projects is 198 KB at quality 1 and 162 KB at 4 (3.3 ms against 10.3 ms),
 * and 199 KB at gzip level 1 against 174 KB at 5.
 */
const LONG_LIST_BYTES = 256 * 1024;
const brotliAt = (quality: number) => ({
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: quality,
  },
});
const JSON_LEVELS = {
  short: { br: brotliAt(1), gzip: { level: 1 } },
  long: { br: brotliAt(4), gzip: { level: 5 } },
};

const ENCODINGS = ['br', 'gzip'];
const GZIP_ALIASES = /\*|x-gzip/g;

/**
 * A `LARGE_RESPONSE` route's answer compressed in one call on the zlib thread pool. The plugin
 * turns every answer into a chain of streams (peek, pump, duplexify) first, which cost twice the
 * compression itself on a 47 KB feed. Negotiation is the plugin's: the same library, `*` and
 * `x-gzip` read as gzip, q-values honoured, `x-no-compression` respected, an answer already
 * encoded (other than `identity`) left alone, and `accept-encoding` added to `Vary` when the
 * answer is compressed. Unlike the plugin it does not look at the content type: these routes
 * answer JSON.
 */
function compressLargeResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: Error | null, payload?: unknown) => void,
): void {
  const accepts = request.headers['accept-encoding'];
  if (
    (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
    accepts === undefined ||
    request.headers['x-no-compression'] !== undefined ||
    (reply.hasHeader('content-encoding') && reply.getHeader('content-encoding') !== 'identity')
  )
    return done(null, payload);
  const bytes = Buffer.byteLength(payload);
  if (bytes < COMPRESS_MIN_BYTES) return done(null, payload);
  const encoding = negotiate(accepts.toLowerCase().replace(GZIP_ALIASES, 'gzip'), ENCODINGS);
  if (encoding !== 'br' && encoding !== 'gzip') return done(null, payload);
  const compressed = (err: Error | null, result: Buffer) => {
    if (err) return done(err);
    const vary = [reply.getHeader('vary') ?? []].flat().join(', ');
    if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary))
      void reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    void reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    done(null, result);
  };
  const levels = bytes < LONG_LIST_BYTES ? JSON_LEVELS.short : JSON_LEVELS.long;
  if (encoding === 'br') brotliCompress(payload, levels.br, compressed);
  else gzip(payload, levels.gzip, compressed);
}

/**
 * Compression only on the routes that ask for it (`LARGE_RESPONSE`). A JSON body sent with a
 * Content-Encoding is still decoded, on routes that take a body; GET and DELETE routes skip that
 * hook.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook, which reads `compress` and `decompress`.
  app.addHook('onRoute', (route) => {
    if (route.compress === LARGE_RESPONSE) {
      route.compress = false;
      route.onSend = [
        ...(route.onSend === undefined ? [] : [route.onSend].flat()),
        compressLargeResponse,
      ];
    }
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
