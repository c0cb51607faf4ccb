// One leader among the instances of a database (the sweeper's): on PostgreSQL two locks on one
// database, as two instances would hold them, each with its own connection.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testDialect, type TestContext } from '../../test/helpers.js';
import { advisoryLockKey, startLeaderLock, type LeaderLock } from './leader-lock.js';

const RETRY_MS = 100;

/** A logger that keeps the messages it is given, by level. */
function capture() {
  const logged = { info: [] as string[], warn: [] as string[] };
  return {
    logged,
    log: {
      info: (_obj: object, msg: string) => void logged.info.push(msg),
      warn: (_obj: object, msg: string) => void logged.warn.push(msg),
    },
  };
}

describe('advisoryLockKey', () => {
  it("is fixed for a role, so every version of the app asks for the sweeper's same key", () => {
    expect(advisoryLockKey('sweeper')).toBe(-1477516440892195677n);
    expect(advisoryLockKey('reports')).not.toBe(advisoryLockKey('sweeper'));
  });
});

describe('a leader lock on a PostgreSQL server that cannot be reached', () => {
  it('never leads, warns, keeps asking, and stops', async () => {
    const { logged, log } = capture();
    const lock = startLeaderLock(
      { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' },
      { role: 'sweeper', retryMs: 20, log },
    );
    await expect.poll(() => logged.warn.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(lock.isLeader()).toBe(false);
    expect(new Set(logged.warn)).toEqual(
      new Set(['sweeper leadership: the database cannot be reached; asking again later']),
    );
    await lock.stop();
    expect(logged.info).toEqual([]);
  });
});

if (testDialect === 'sqlite')
  describe('a leader lock on SQLite', () => {
    it('always leads: one process per database file', async () => {
      const lock = startLeaderLock(
        { kind: 'sqlite', file: ':memory:' },
        { role: 'sweeper', log: capture().log },
      );
      expect(lock.isLeader()).toBe(true);
      await lock.stop();
    });
  });

if (testDialect === 'postgres')
  describe('leader locks of two instances on one PostgreSQL database', () => {
    let ctx: TestContext;
    let url: string;
    let admin: pg.Client;
    const locks: LeaderLock[] = [];
    beforeAll(async () => {
      ctx = await createTestContext();
      if (ctx.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      url = ctx.config.database.url;
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    });
    afterAll(async () => {
      await Promise.all(locks.map((lock) => lock.stop()));
      await admin?.end();
      await ctx?.close();
    });

    function instance() {
      const { logged, log } = capture();
      const lock = startLeaderLock(
        { kind: 'postgres', url },
        { role: 'sweeper', retryMs: RETRY_MS, log },
      );
      locks.push(lock);
      return { lock, logged };
    }

    /** The server-side pid of the session holding the sweeper's lock in this database, if any. */
    async function holder(): Promise<number | null> {
      const key = advisoryLockKey('sweeper');
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_locks
          where locktype = 'advisory' and granted and database = (
            select oid from pg_database where datname = current_database())
            and objid = $1::bigint::bit(32)::int and classid = ($1::bigint >> 32)::int`,
        [key.toString()],
      );
      return rows[0]?.pid ?? null;
    }

    const leaders = (...all: { lock: LeaderLock }[]) => all.filter((i) => i.lock.isLeader());

    it('lets exactly one lead, however often the other asks', async () => {
      const a = instance();
      const b = instance();
      await expect.poll(() => leaders(a, b).length, { timeout: 10_000 }).toBe(1);
      expect(await holder()).not.toBeNull();
      // Several more rounds of asking change nothing.
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 5));
      expect(leaders(a, b)).toHaveLength(1);
      const [leader] = leaders(a, b);
      expect(leader!.logged.info).toEqual(['sweeper leadership taken']);
      await Promise.all([a.lock.stop(), b.lock.stop()]);
      expect(leader!.logged.info).toEqual([
        'sweeper leadership taken',
        'sweeper leadership released',
      ]);
      expect(await holder()).toBeNull();
    });

    it("hands over when the leader's connection is cut (PostgreSQL terminated it)", async () => {
      const a = instance();
      const b = instance();
      await expect.poll(() => leaders(a, b).length, { timeout: 10_000 }).toBe(1);
      const [leader] = leaders(a, b);
      const follower = leader === a ? b : a;
      const pid = await holder();
      expect(pid).not.toBeNull();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      // The leader hears of it at once and stops leading; the other takes over at its next round.
      await expect.poll(() => follower.lock.isLeader(), { timeout: 10_000 }).toBe(true);
      expect(leader!.lock.isLeader()).toBe(false);
      expect(leader!.logged.warn).toEqual([
        'sweeper leadership lost: its database connection failed; asking again later',
      ]);
      expect(follower.logged.info).toEqual(['sweeper leadership taken']);
      // The old leader asks again, and stays a follower while the new one holds the lock.
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 5));
      expect(leaders(a, b)).toEqual([follower]);
      await Promise.all([a.lock.stop(), b.lock.stop()]);
    });

    it('hands over when the leader stops (a shutdown releases the lock)', async () => {
      const a = instance();
      await expect.poll(() => a.lock.isLeader(), { timeout: 10_000 }).toBe(true);
      const b = instance();
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 3));
      expect(b.lock.isLeader()).toBe(false);
      await a.lock.stop();
      await expect.poll(() => b.lock.isLeader(), { timeout: 10_000 }).toBe(true);
      await b.lock.stop();
    });
  });
