// Guards on how a request body arrives (its encoding, its pace), for bodies read as a stream.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** How long an upload body may send nothing before it is cut off (408). */
export const UPLOAD_IDLE_TIMEOUT_MS = 30_000;

// The body is left unread, so the connection cannot carry another request: close it.
const CLOSE = { connection: 'close' };

const isMultipart = (contentType: string | undefined) =>
  /^multipart\//i.test(contentType?.trim() ?? '');

const isEncoded = (contentEncoding: string | undefined) =>
  contentEncoding !== undefined &&
  contentEncoding.split(',').some((coding) => !/^\s*(identity)?\s*$/i.test(coding));

/**
 * Refuses a multipart body with a `Content-Encoding` (415). The multipart parser reads the raw
 * socket, so the decompression stream `@fastify/compress` puts in front of the body was never
 * read and the request hung until the connection timeout. Photos are compressed already, so
 * decoding would gain nothing; JSON bodies keep being decompressed as before.
 */
export function refuseEncodedMultipart(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const { headers } = request;
    if (isMultipart(headers['content-type']) && isEncoded(headers['content-encoding'])) {
      done(
        new AppError(
          415,
          'unsupported_content_encoding',
          `Send the upload form without a Content-Encoding (got "${headers['content-encoding']}"): photos are compressed already.`,
          CLOSE,
        ),
      );
    } else done();
  });
}

/** 408 for a body that stopped arriving; the connection is closed with the answer. */
function bodyStalled(idleMs: number): AppError {
  const seconds = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
  return new AppError(
    408,
    'upload_stalled',
    `The upload stalled: nothing arrived for ${seconds}. Check the connection and try again.`,
    CLOSE,
  );
}

/**
 * Aborts (with `bodyStalled`) when no byte of `req`'s body arrives for `idleMs`, so a client
 * that sends the headers and stops holds its socket for that long, not for the connection
 * timeout. Uses the socket's inactivity timer: Node emits 'timeout' on an incomplete request
 * (instead of destroying the socket) when the request has a listener, so the caller can still
 * answer 408. Once the body is complete the socket's own timeout is restored, so a long image
 * decode after it is not cut off. Call `stop()` when done with the body.
 */
export function watchBodyIdle(
  req: IncomingMessage,
  idleMs: number,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  const socket = req.socket as IncomingMessage['socket'] | undefined;
  // `inject` requests have a stand-in socket without timers (and no network to stall).
  if (req.complete || typeof socket?.setTimeout !== 'function')
    return { signal: controller.signal, stop: () => {} };
  const previous = socket.timeout ?? 0;
  const onTimeout = () => {
    if (!req.complete) controller.abort(bodyStalled(idleMs));
  };
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    req.off('timeout', onTimeout);
    req.off('end', stop);
    if (!socket.destroyed) socket.setTimeout(previous);
  };
  req.on('timeout', onTimeout);
  req.once('end', stop);
  socket.setTimeout(idleMs);
  return { signal: controller.signal, stop };
}
