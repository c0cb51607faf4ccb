import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '../../../test/helpers.js';
import { buildUser } from '../../../test/factories.js';
import { pruneAuthRecords } from './auth.service.js';

const attempt = (ctx: TestContext, email: string, password: string, forwardedFor: string) =>
  api(ctx, {
    method: 'POST',
    url: '/api/auth/login',
    payload: { login: { email, password } },
    headers: { 'x-forwarded-for': forwardedFor },
  });

const loginFailureRows = (ctx: TestContext) =>
  ctx.db.selectFrom('login_failures').selectAll().orderBy('key').execute();

describe('TRUST_PROXY as a hop count', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ TRUST_PROXY: '1', LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
  });
  afterAll(async () => ctx.close());

  it('takes the address the proxy saw, so a client cannot pick its own by rotating X-Forwarded-For', async () => {
    const user = await buildUser(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // The client writes the left-most value; the proxy (one hop) appends the peer it saw.
      const res = await attempt(ctx, user.email, 'wrong-password', `198.51.100.${i}, 10.7.7.7`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });
});

describe("TRUST_PROXY as the proxies' addresses", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '2',
    });
  });
  afterAll(async () => ctx.close());

  const from = (remoteAddress: string, forwardedFor: string, email: string) =>
    api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { login: { email, password: 'wrong-password' } },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('believes X-Forwarded-For only as far as the listed proxies go', async () => {
    const user = await buildUser(ctx);
    // Through the local proxy and an internal one: the client is the first address outside them.
    const viaProxies = [];
    for (let i = 0; i < 3; i++)
      viaProxies.push(
        (await from('127.0.0.1', `198.51.100.${i}, 203.0.113.7, 10.1.2.3`, user.email)).statusCode,
      );
    expect(viaProxies).toEqual([401, 401, 429]);
    // A client connecting directly is not a listed proxy: its own header is ignored.
    const other = await buildUser(ctx);
    const direct = [];
    for (let i = 0; i < 3; i++)
      direct.push((await from('192.0.2.44', `198.51.100.${i}`, other.email)).statusCode);
    expect(direct).toEqual([401, 401, 429]);
  });
});

describe('failures per account across all IPs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_IPS: '5',
    });
  });
  afterAll(async () => ctx.close());

  const allIpsKey = (email: string) => `acct-all:${email}`;

  it('slows an attack spread over many IPs down, and still lets the user in from an IP they signed in from', async () => {
    const user = await buildUser(ctx);
    expect((await attempt(ctx, user.email, user.password, '10.8.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await attempt(ctx, user.email, 'wrong-password', `10.9.0.${i}`)).statusCode).toBe(
        401,
      );
    }
    const slowed = await attempt(ctx, user.email, 'wrong-password', '10.9.1.1');
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password waits when it comes from an address never used for this account…
    expect((await attempt(ctx, user.email, user.password, '10.9.1.2')).statusCode).toBe(429);
    // …but not from the address the user signed in from before.
    expect((await attempt(ctx, user.email, user.password, '10.8.0.1')).statusCode).toBe(200);
  });

  it('lets one attempt through per delay, the delay growing with each failure', async () => {
    const user = await buildUser(ctx);
    for (let i = 0; i < 5; i++) await attempt(ctx, user.email, 'wrong-password', `10.10.0.${i}`);
    const retryAfter: number[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await attempt(ctx, user.email, 'wrong-password', `10.10.1.${round}`);
      expect(refused.statusCode).toBe(429);
      retryAfter.push(Number(refused.headers['retry-after']));
      // The delay has passed: the next attempt is let through (and fails, the password is wrong).
      await ctx.db
        .updateTable('login_failures')
        .set({ last_attempt_at: new Date(Date.now() - 3600_000).toISOString() })
        .where('key', '=', allIpsKey(user.email))
        .execute();
      expect(
        (await attempt(ctx, user.email, 'wrong-password', `10.10.2.${round}`)).statusCode,
      ).toBe(401);
    }
    expect(retryAfter[1]).toBeGreaterThan(retryAfter[0] ?? Infinity);
    expect(retryAfter[2]).toBeGreaterThan(retryAfter[1] ?? Infinity);
  });

  it('never makes the user wait more than five minutes, however many attempts were made', async () => {
    const user = await buildUser(ctx);
    for (let i = 0; i < 5; i++) await attempt(ctx, user.email, 'wrong-password', `10.11.0.${i}`);
    await ctx.db
      .updateTable('login_failures')
      .set({ count: 100_000, last_attempt_at: new Date().toISOString() })
      .where('key', '=', allIpsKey(user.email))
      .execute();
    const refused = await attempt(ctx, user.email, user.password, '10.11.1.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
    // Once the delay has passed the user gets in from a new address.
    await ctx.db
      .updateTable('login_failures')
      .set({ last_attempt_at: new Date(Date.now() - 301_000).toISOString() })
      .where('key', '=', allIpsKey(user.email))
      .execute();
    expect((await attempt(ctx, user.email, user.password, '10.11.1.1')).statusCode).toBe(200);
  });

  it('lets only one of many parallel guesses through once the account is slowed', async () => {
    const user = await buildUser(ctx);
    for (let i = 0; i < 5; i++) await attempt(ctx, user.email, 'wrong-password', `10.12.0.${i}`);
    await ctx.db
      .updateTable('login_failures')
      .set({ last_attempt_at: new Date(Date.now() - 3600_000).toISOString() })
      .where('key', '=', allIpsKey(user.email))
      .execute();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        attempt(ctx, user.email, 'wrong-password', `10.12.1.${i}`),
      ),
    );
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(9);
  });
});

describe('refused sign-ins write nothing', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ TRUST_PROXY: '1', LOGIN_MAX_FAILURES_PER_IP: '3' });
  });
  afterAll(async () => ctx.close());

  it('adds no rows for 100 random emails once the IP is limited', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await attempt(ctx, `nobody${i}@example.com`, 'wrong-password', '10.6.6.6');
      expect(res.statusCode).toBe(401);
    }
    expect((await attempt(ctx, 'someone@example.com', 'x', '10.6.6.6')).statusCode).toBe(429);
    const before = await loginFailureRows(ctx);
    for (let i = 0; i < 100; i++) {
      const email = `${randomBytes(6).toString('hex')}@example.com`;
      expect((await attempt(ctx, email, 'wrong-password', '10.6.6.6')).statusCode).toBe(429);
    }
    expect(await loginFailureRows(ctx)).toEqual(before);
  });

  it('prunes windows that have ended and keeps current ones', async () => {
    await attempt(ctx, 'current@example.com', 'wrong-password', '10.6.7.1');
    const ended = new Date(Date.now() - ctx.config.loginLimits.windowMs - 1000).toISOString();
    await ctx.db
      .insertInto('login_failures')
      .values({ key: 'ip:192.0.2.1', window_start: ended, count: 5, last_attempt_at: ended })
      .execute();
    await pruneAuthRecords(ctx);
    const keys = (await loginFailureRows(ctx)).map((r) => r.key);
    expect(keys).not.toContain('ip:192.0.2.1');
    expect(keys).toContain('ip:10.6.7.1');
  });
});
