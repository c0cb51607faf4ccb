// Connections that make no progress at all are ended, checked a few times a minute rather than on
// every read and write.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A connection that has sent and received nothing for this long is ended. */
export const STALLED_CONNECTION_MS = 310_000;
/** How often the connections are looked at; a stalled one ends at most this much later. */
export const STALLED_CHECK_EVERY_MS = 10_000;

/**
 * Ends a connection once no byte has arrived on it or been handed to it for `stalledMs`: a client
 * that stopped reading a download (a slow-read attack holds memory and a descriptor for as long
 * as it likes), or a request that never got its answer. The other stalls have their own limits:
 * headers (Node's `headersTimeout`), a whole request (`requestTimeout`), an upload's body
 * (`UPLOAD_IDLE_TIMEOUT_MS`) and an idle keep-alive connection (`keepAliveTimeout`).
 *
 * Node's own socket timeout (Fastify's `connectionTimeout`) does the same, but re-arms a timer on
 * every read and write of every request: 10–15% of a small call's CPU, measured on a bare Fastify
 * hello. A check every `checkEveryMs` costs nothing per request. Returns the function that stops
 * the checks (the server's close).
 */
export function endStalledConnections(
  server: Server,
  { stalledMs = STALLED_CONNECTION_MS, checkEveryMs = STALLED_CHECK_EVERY_MS } = {},
): () => void {
  // Each open connection: its byte count when last seen moving, and when that was.
  const connections = new Map<Socket, { bytes: number; since: number }>();
  const onConnection = (socket: Socket) => {
    connections.set(socket, { bytes: 0, since: Date.now() });
    socket.once('close', () => connections.delete(socket));
  };
  server.on('connection', onConnection);
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [socket, seen] of connections) {
      // bytesWritten counts what was handed to the socket, sent or still queued: a download to a
      // client that stopped reading stops growing once its stream is held back.
      const bytes = socket.bytesRead + (socket.bytesWritten ?? 0);
      if (bytes !== seen.bytes) {
        seen.bytes = bytes;
        seen.since = now;
      } else if (now - seen.since >= stalledMs) {
        connections.delete(socket);
        socket.destroy();
      }
    }
  }, checkEveryMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('connection', onConnection);
  };
}
