// One leader among the instances of a database, for work that must not run on all of them at
// once (the media sweeper). PostgreSQL: a session-level advisory lock, held on a connection of
// its own for as long as this instance leads; SQLite: one process per file, always the leader.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Config } from '../config.js';
import { outageReason } from './database-errors.js';
import { CONNECT_TIMEOUT_MS } from './database.js';

export interface LeaderLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LeaderLock {
  /** Whether this instance leads now (a lost connection ends it at once). */
  isLeader(): boolean;
  /** Releases the lock (if held) and closes its connection; no new attempts after it. */
  stop(): Promise<void>;
}

export interface LeaderLockOptions {
  /** What the lock is for, e.g. `sweeper`: the lock's key is derived from it, logs name it. */
  role: string;
  /**
   * How often a follower asks for the lock, and a leader checks its connection is alive
   * (default: a minute).
   */
  retryMs?: number;
  log: LeaderLogger;
}

/**
 * The advisory lock key of a role: the first 8 bytes of SHA-256(`sitelog:<role>`) as a signed
 * 64-bit number, fixed for ever (every version must ask for the same key) and unlikely to meet
 * another application's keys on a shared server.
 */
export function advisoryLockKey(role: string): bigint {
  return createHash('sha256').update(`sitelog:${role}`).digest().readBigInt64BE(0);
}

/**
 * Starts asking for the role's lock, at once and then every `retryMs`. On PostgreSQL the leader
 * keeps a dedicated `pg.Client` (not a pool connection: a session lock lives exactly as long as
 * its connection, so the connection must be one nobody else uses, that is never recycled, and
 * whose loss we hear about at once through its 'error' and 'end' events; a pooled connection
 * reserved through Kysely would say nothing until its next query, and hold one of the
 * requests' connections for ever). When that connection fails (PostgreSQL restarted, the
 * network dropped), this instance stops leading at once, logs it, and asks again at the next
 * round: by then another instance may lead. Never throws: a database that cannot be reached is
 * logged and asked again later.
 */
export function startLeaderLock(
  database: Config['database'],
  options: LeaderLockOptions,
): LeaderLock {
  if (database.kind === 'sqlite') return { isLeader: () => true, stop: async () => {} };
  const { url } = database;
  const { role, log, retryMs = 60_000 } = options;
  const key = advisoryLockKey(role).toString();
  let leader: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let attempt: Promise<void> | null = null;

  const lose = (client: pg.Client, err: unknown) => {
    if (leader !== client) return;
    leader = null;
    log.warn(
      { reason: outageReason(err) },
      `${role} leadership lost: its database connection failed; asking again later`,
    );
    void client.end().catch(() => undefined);
  };

  async function askForLock(): Promise<void> {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A server that stopped answering fails the round's query instead of holding it (and a
      // shutdown waiting for it) for ever.
      query_timeout: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    // Without a listener a dropped connection's 'error' would end the process.
    client.on('error', (err) => lose(client, err));
    client.on('end', () => lose(client, new Error('Connection terminated')));
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock($1::bigint) as locked',
        [key],
      );
      if (rows[0]?.locked === true && !stopped) {
        leader = client;
        log.info({ role }, `${role} leadership taken`);
        return;
      }
    } catch (err) {
      log.warn(
        { reason: outageReason(err) },
        `${role} leadership: the database cannot be reached; asking again later`,
      );
    }
    await client.end().catch(() => undefined);
  }

  async function round(): Promise<void> {
    const client = leader;
    if (!client) return askForLock();
    // The leader's connection may have gone silently (no reset reached us): ask it.
    try {
      await client.query('select 1');
    } catch (err) {
      lose(client, err);
    }
  }

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      attempt = round().finally(() => {
        attempt = null;
        schedule(retryMs);
      });
    }, delay);
    timer.unref();
  };
  schedule(0);

  return {
    isLeader: () => leader !== null,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await attempt;
      const client = leader;
      if (!client) return;
      leader = null;
      try {
        await client.query('select pg_advisory_unlock($1::bigint)', [key]);
      } catch {
        // Ending the session below releases it anyway.
      }
      await client.end().catch(() => undefined);
      log.info({ role }, `${role} leadership released`);
    },
  };
}
