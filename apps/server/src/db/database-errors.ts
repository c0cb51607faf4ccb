// Which database errors mean "the database cannot be reached" rather than "this query is wrong":
// the error handler answers those with 503, and the background loops wait for the next round.
import pg from 'pg';

/** Socket errors under a connection: the server is down, restarting, or the network dropped. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for a server going away or not yet taking connections: 57P01
 * admin_shutdown (a restart), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or
 * in recovery). Class 08 (connection exceptions) is matched as a class, but for 08P01
 * protocol_violation, which a query of ours can cause (too many bind parameters): that is a bug
 * to see as a 500 with its stack, not an outage. Both only on errors the server sent
 * (pg.DatabaseError).
 */
const SERVER_GONE_CODES = new Set(['57P01', '57P02', '57P03']);

/**
 * node-postgres (pg, pg-pool) reports a dropped connection, a client it refuses to reuse and its
 * pool's connect timeout as plain Errors, with these messages and no code.
 */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * True when `err` says the database connection failed: refused, reset, timed out, terminated by
 * a restart, or not accepted yet. Query errors (constraints, syntax, serialization) are false:
 * they are not fixed by waiting. Errors that merely wrap one (`cause`) are not looked into: a
 * storage error caused by a refused bucket connection is not a database outage.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (err instanceof pg.DatabaseError) {
      if (SERVER_GONE_CODES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01') return true;
    }
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((re) => re.test(message)))
    return true;
  // Node's connect to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with an
  // AggregateError holding each attempt's error.
  return Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner));
}

/**
 * What a log line says about an outage's error: its code and message, without the stack (every
 * request or round fails the same way while it lasts).
 */
export function outageReason(err: unknown): { code: unknown; message: string } {
  const { code, message } = (typeof err === 'object' && err !== null ? err : {}) as {
    code?: unknown;
    message?: unknown;
  };
  return { code, message: typeof message === 'string' ? message : String(err) };
}

/**
 * PostgreSQL aborted the transaction to resolve a conflict with another one: 40P01
 * deadlock_detected, 40001 serialization_failure. Nothing of it was kept, and PostgreSQL's manual
 * says to run such a transaction again.
 */
export function isTransactionConflict(err: unknown): boolean {
  return err instanceof pg.DatabaseError && (err.code === '40P01' || err.code === '40001');
}
