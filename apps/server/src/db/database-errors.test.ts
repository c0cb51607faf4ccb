import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-errors.js';

/** An Error as Node's sockets and pg make them: a message and a `code`. */
const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
/** An error PostgreSQL sent, as pg makes it: a DatabaseError with the SQLSTATE as its code. */
const fromServer = (code: string, message = code) =>
  Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a refused connection, as pg reports it', async () => {
    const client = new pg.Client({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("knows the pool's connect timeout, against a server that never answers", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const pool = new pg.Pool({
      connectionString: `postgres://nobody@127.0.0.1:${(silent.address() as AddressInfo).port}/x`,
      connectionTimeoutMillis: 100,
    });
    try {
      const err = await pool.query('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      // pg's client gives up first ("Connection terminated due to connection timeout"); the
      // pool's own message is for a wait on a full pool (below).
      expect(err).toMatchObject({ message: 'Connection terminated due to connection timeout' });
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await pool.end();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it.each([
    ['a reset connection', coded('ECONNRESET', 'read ECONNRESET')],
    ['a connect timeout', coded('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.9:5432')],
    ['a write to a closed socket', coded('EPIPE', 'write EPIPE')],
    ['an unreachable host', coded('EHOSTUNREACH')],
    ['a name that cannot be resolved now', coded('EAI_AGAIN')],
    [
      'a restart (57P01 admin_shutdown)',
      fromServer('57P01', 'terminating connection due to administrator command'),
    ],
    ['a crash (57P02 crash_shutdown)', fromServer('57P02')],
    [
      'a server starting up (57P03 cannot_connect_now)',
      fromServer('57P03', 'the database system is starting up'),
    ],
    ['a connection failure (08006)', fromServer('08006')],
    ['a refused connection (08001)', fromServer('08001')],
    ['a connection that does not exist (08003)', fromServer('08003')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    [
      'a connection ended at its timeout',
      new Error('Connection terminated due to connection timeout'),
    ],
    [
      'a client dropped after an error',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a closed client', new Error('Client was closed and is not queryable')],
    [
      'a wait for a connection of a full pool',
      new Error('timeout exceeded when trying to connect'),
    ],
    [
      'every address of localhost refusing',
      Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], ''), {
        code: 'ECONNREFUSED',
      }),
    ],
    ['an AggregateError without its own code', new AggregateError([coded('ECONNREFUSED')], '')],
  ])('is true for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', coded('23505', 'duplicate key value violates unique constraint')],
    ['a missing table', coded('42P01', 'relation "nope" does not exist')],
    ['a serialization failure', coded('40001')],
    ['a deadlock', coded('40P01')],
    ['a busy SQLite file', coded('SQLITE_BUSY', 'database is locked')],
    [
      'a protocol violation (08P01: a query of ours, e.g. too many parameters)',
      fromServer('08P01'),
    ],
    ['a SQLSTATE on an error PostgreSQL did not send', coded('57P01')],
    ['a plain error', new Error('Something else')],
    ['a message that only mentions a connection', new Error('Connection refused by policy')],
    [
      'a storage error caused by a refused bucket',
      Object.assign(new Error('the bucket cannot be reached', { cause: coded('ECONNREFUSED') }), {
        name: 'StorageError',
      }),
    ],
    ['null', null],
    ['a string', 'ECONNREFUSED'],
    ['an object with a numeric code', { code: 8006 }],
  ])('is false for %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
