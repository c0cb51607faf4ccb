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

    function instance(retryMs = RETRY_MS) {
      const { logged, log } = capture();
      const lock = startLeaderLock({ kind: 'postgres', url }, { role: 'sweeper', retryMs, log });
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

    const leaders = <T extends { lock: LeaderLock }>(...all: T[]) =>
      all.filter((i) => i.lock.isLeader());

    it('lets exactly one lead, however often the other asks', async () => {
      const a = instance();
      const b = instance();
      try {
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
      } finally {
        await Promise.all([a.lock.stop(), b.lock.stop()]);
      }
    });

    it('stops leading the moment its connection is cut, and takes the lock again later', async () => {
      const a = instance();
      try {
        await expect.poll(() => a.lock.isLeader(), { timeout: 10_000 }).toBe(true);
        const pid = await holder();
        expect(pid).not.toBeNull();
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await expect
          .poll(() => a.logged.warn, { timeout: 10_000 })
          .toEqual(['sweeper leadership lost: its database connection failed; asking again later']);
        // A PostgreSQL restart is over: the next round takes the lock on a new connection.
        await expect.poll(() => holder(), { timeout: 10_000 }).not.toBe(pid);
        await expect.poll(() => a.lock.isLeader(), { timeout: 10_000 }).toBe(true);
        expect(await holder()).not.toBeNull();
        expect(a.logged.info).toEqual(['sweeper leadership taken', 'sweeper leadership taken']);
      } finally {
        await a.lock.stop();
      }
    });

    it("hands over when the leader's connection is gone (its instance died)", async () => {
      // The leader asks again only after a minute, as a dead instance never would: the lock the
      // server freed with the connection goes to the other at its next round.
      const a = instance(60_000);
      let b: ReturnType<typeof instance> | null = null;
      try {
        await expect.poll(() => a.lock.isLeader(), { timeout: 10_000 }).toBe(true);
        b = instance();
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 3));
        expect(b.lock.isLeader()).toBe(false);
        await admin.query('select pg_terminate_backend($1)', [await holder()]);
        await expect.poll(() => b?.lock.isLeader(), { timeout: 10_000 }).toBe(true);
        expect(a.lock.isLeader()).toBe(false);
        expect(b.logged.info).toEqual(['sweeper leadership taken']);
      } finally {
        await Promise.all([a.lock.stop(), b?.lock.stop()]);
      }
    });

    it('hands over when the leader stops (a shutdown releases the lock)', async () => {
      const a = instance();
      const b = instance();
      try {
        await expect.poll(() => leaders(a, b).length, { timeout: 10_000 }).toBe(1);
        const [leader] = leaders(a, b);
        const follower = leader === a ? b : a;
        await leader!.lock.stop();
        await expect.poll(() => follower.lock.isLeader(), { timeout: 10_000 }).toBe(true);
      } finally {
        await Promise.all([a.lock.stop(), b.lock.stop()]);
      }
    });
  });
