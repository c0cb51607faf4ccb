import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createTestContext,
  login,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { buildUser } from '../../../test/factories.js';
import { isSessionLive, pruneAuthRecords, revokeAllSessions } from './auth.service.js';
import { hashToken } from './tokens.js';
import { API_CSP } from '../../http/security-headers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

function postLogin(payload: unknown, headers: Record<string, string> = {}) {
  return api(ctx, { method: 'POST', url: '/api/auth/login', payload: payload as object, headers });
}

describe('POST /api/auth/login', () => {
  it('signs in with the right password and answers the user with a token', async () => {
    const user = await buildUser(ctx, { firstname: 'Ana', lastname: 'Silva', isAdmin: true });
    const res = await postLogin({
      login: { email: user.email.toUpperCase(), password: user.password },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: user.id,
      firstname: 'Ana',
      lastname: 'Silva',
      email: user.email,
      isAdmin: true,
    });
    expect(typeof body.id).toBe('number');
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('stores only a hash of the token', async () => {
    const user = await signedInUser(ctx);
    const rows = await ctx.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashToken(user.token));
    expect(rows[0]?.token_hash).not.toContain(user.token);
  });

  it('gives the same 401 message for an unknown email and a wrong password', async () => {
    const user = await buildUser(ctx);
    const wrong = await postLogin(
      { login: { email: user.email, password: 'not the password' } },
      { 'x-forwarded-for': '10.0.0.1' },
    );
    const unknown = await postLogin({
      login: { email: 'nobody@example.com', password: 'whatever1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.json().message).toMatch(/email or password/i);
  });

  it.each([
    ['an empty object', {}],
    ['a missing password', { login: { email: 'a@example.com' } }],
    ['a missing email', { login: { password: 'x' } }],
    ['wrong types', { login: { email: 42, password: ['x'] } }],
    ['an array', [1, 2]],
    ['a NUL byte in the email', { login: { email: 'a\u0000@example.com', password: 'x' } }],
  ])('refuses %s with 400 and a message', async (_label, payload) => {
    const res = await postLogin(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.json().code).toBeTruthy();
    expect(res.json().requestId).toBeTruthy();
  });

  it('refuses non-JSON with a 4xx and a message', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"login": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/not valid JSON/i);
    const text = await api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      payload: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toBeTruthy();
  });

  it('refuses a 10 MB body with 413', async () => {
    const res = await postLogin({
      login: { email: 'a@example.com', password: 'x'.repeat(10 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/i);
  });

  it('refuses a deactivated user', async () => {
    const user = await buildUser(ctx, { isActive: false });
    const res = await postLogin({ login: { email: user.email, password: user.password } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/deactivated/i);
  });

  it('tells a deactivated account apart only to someone who knows its password', async () => {
    const user = await buildUser(ctx, { isActive: false });
    const wrong = await postLogin({ login: { email: user.email, password: 'not the password' } });
    const unknown = await postLogin({
      login: { email: 'nobody-else@example.com', password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: unknown.json().code });
    expect(wrong.json().message).toBe(unknown.json().message);
  });
});

describe('brute-force limits', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_IP: '8',
    });
  });
  afterAll(async () => limited.close());
  const attempt = (email: string, password: string, ip: string) =>
    api(limited, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: { email, password } },
      headers: { 'x-forwarded-for': ip },
    });

  it('answers 429 with Retry-After after too many failures for one account from one IP', async () => {
    const user = await buildUser(limited);
    for (let i = 0; i < 3; i++) {
      expect((await attempt(user.email, 'wrong-password', '10.1.1.1')).statusCode).toBe(401);
    }
    const refused = await attempt(user.email, user.password, '10.1.1.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/too many/i);
    // The same account from another address is not locked out.
    expect((await attempt(user.email, user.password, '10.1.1.2')).statusCode).toBe(200);
  });

  it('answers 429 after too many failures from one IP across accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      statuses.push(
        (await attempt(`nobody${i}@example.com`, 'wrong-password', '10.2.2.2')).statusCode,
      );
    }
    expect(statuses.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(statuses[8]).toBe(429);
  });

  it('holds the limit against parallel guesses', async () => {
    const user = await buildUser(limited);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => attempt(user.email, 'wrong-password', '10.4.4.4')),
    );
    expect(statuses.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(17);
  });

  it('forgets failures after a successful sign-in', async () => {
    const user = await buildUser(limited);
    for (let i = 0; i < 2; i++) await attempt(user.email, 'wrong-password', '10.3.3.3');
    expect((await attempt(user.email, user.password, '10.3.3.3')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) await attempt(user.email, 'wrong-password', '10.3.3.3');
    expect((await attempt(user.email, user.password, '10.3.3.3')).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('answers the current user on /api/auth/me', async () => {
    const user = await signedInUser(ctx, { firstname: 'Me' });
    const res = await api(ctx, { method: 'GET', url: '/api/auth/me', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      firstname: 'Me',
      lastname: user.lastname,
      email: user.email,
      isAdmin: false,
      isActive: true,
    });
  });

  it.each([
    ['no header', undefined],
    ['garbage', 'garbage'],
    ['a bearer with junk', 'Bearer !!!'],
    ['an unknown token', `Bearer ${'a'.repeat(43)}`],
    ['basic auth', 'Basic dXNlcjpwYXNz'],
  ])('answers 401 for %s', async (_label, header) => {
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/auth/me',
      headers: header ? { authorization: header } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
  });

  it('accepts the token only from the Authorization header', async () => {
    const user = await signedInUser(ctx);
    const res = await api(ctx, {
      method: 'GET',
      url: `/api/auth/me?token=${user.token}`,
      headers: { cookie: `token=${user.token}` },
    });
    expect(res.statusCode).toBe(401);
  });

  it('revokes the session on logout', async () => {
    const user = await signedInUser(ctx);
    const out = await api(ctx, { method: 'POST', url: '/api/auth/logout', token: user.token });
    expect(out.statusCode).toBe(200);
    const after = await api(ctx, { method: 'GET', url: '/api/auth/me', token: user.token });
    expect(after.statusCode).toBe(401);
  });

  it('answers 401 to a logout without a session, and to a second logout', async () => {
    const signedOut = await api(ctx, { method: 'POST', url: '/api/auth/logout' });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().code).toBe('unauthorized');
    const user = await signedInUser(ctx);
    expect(
      (await api(ctx, { method: 'POST', url: '/api/auth/logout', token: user.token })).statusCode,
    ).toBe(200);
    const again = await api(ctx, { method: 'POST', url: '/api/auth/logout', token: user.token });
    expect(again.statusCode).toBe(401);
  });

  it('stops every session of a deactivated user at once', async () => {
    const user = await buildUser(ctx);
    const a = await login(ctx, user);
    const b = await login(ctx, user);
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
    expect((await api(ctx, { method: 'GET', url: '/api/auth/me', token: a })).statusCode).toBe(401);
    await ctx.db.updateTable('users').set({ is_active: 1 }).where('id', '=', user.id).execute();
    await revokeAllSessions(ctx, user.id);
    expect((await api(ctx, { method: 'GET', url: '/api/auth/me', token: b })).statusCode).toBe(401);
  });

  it('expires a session after the idle window and after its absolute lifetime', async () => {
    const idle = await signedInUser(ctx);
    const old = new Date(Date.now() - ctx.config.sessions.idleMs - 1000).toISOString();
    await ctx.db
      .updateTable('sessions')
      .set({ last_seen_at: old })
      .where('user_id', '=', idle.id)
      .execute();
    expect(
      (await api(ctx, { method: 'GET', url: '/api/auth/me', token: idle.token })).statusCode,
    ).toBe(401);

    const expired = await signedInUser(ctx);
    await ctx.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', expired.id)
      .execute();
    expect(
      (await api(ctx, { method: 'GET', url: '/api/auth/me', token: expired.token })).statusCode,
    ).toBe(401);
  });

  it('prunes sessions that ended over a day ago and keeps live ones', async () => {
    const live = await signedInUser(ctx);
    const dead = await signedInUser(ctx);
    const longAgo = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
    await ctx.db
      .updateTable('sessions')
      .set({ revoked_at: longAgo })
      .where('user_id', '=', dead.id)
      .execute();
    await pruneAuthRecords(ctx);
    const left = await ctx.db
      .selectFrom('sessions')
      .select('user_id')
      .where('user_id', 'in', [live.id, dead.id])
      .execute();
    expect(left.map((r) => r.user_id)).toEqual([live.id]);
    expect(
      (await api(ctx, { method: 'GET', url: '/api/auth/me', token: live.token })).statusCode,
    ).toBe(200);
  });

  it('treats an idle-expired session as not live for media links', async () => {
    const user = await signedInUser(ctx);
    const row = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(await isSessionLive(ctx, row.id)).toBe(true);
    const old = new Date(Date.now() - ctx.config.sessions.idleMs - 1000).toISOString();
    await ctx.db
      .updateTable('sessions')
      .set({ last_seen_at: old })
      .where('id', '=', row.id)
      .execute();
    expect(await isSessionLive(ctx, row.id)).toBe(false);
  });

  /** A signed-in user whose session was last seen 10 minutes ago, and that moment. */
  async function staleSession() {
    const user = await signedInUser(ctx);
    const stale = new Date(Date.now() - 10 * 60_000).toISOString();
    await ctx.db
      .updateTable('sessions')
      .set({ last_seen_at: stale })
      .where('user_id', '=', user.id)
      .execute();
    const lastSeen = async () =>
      (
        await ctx.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    return { user, stale, lastSeen };
  }

  it('slides the idle window on use', async () => {
    const { user, stale, lastSeen } = await staleSession();
    expect(
      (await api(ctx, { method: 'GET', url: '/api/auth/me', token: user.token })).statusCode,
    ).toBe(200);
    expect(Date.parse(await lastSeen())).toBeGreaterThan(Date.parse(stale));
  });

  it('neither reads nor extends a session from a token sent to a public route', async () => {
    const { user, stale, lastSeen } = await staleSession();
    for (const url of ['/api/health', '/api/config', '/api/auth/hints'])
      expect((await api(ctx, { method: 'GET', url, token: user.token })).statusCode, url).toBe(200);
    expect(await lastSeen()).toBe(stale);
  });
});

describe('HTTP basics', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.json().code).toBe('not_found');
  });

  it.each(['/%61pi/project/all/list', '/%61pi/user/all/profile', '/api/%70roject/all/list'])(
    'needs a session on percent-encoded API paths too (%s)',
    async (url) => {
      const res = await api(ctx, { method: 'GET', url });
      expect([401, 404]).toContain(res.statusCode);
      if (res.statusCode === 200) throw new Error('reached the API without a session');
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('sends strict security headers on API responses', async () => {
    for (const url of ['/api/health', '/api/no/such/call']) {
      const res = await api(ctx, { method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cache-control']).toBe('no-store');
      // JSON is never a page: nothing may load, run or frame it.
      expect(res.headers['content-security-policy']).toBe(API_CSP);
      // What a page's scripts may use has nothing to govern in JSON.
      expect(res.headers).not.toHaveProperty('permissions-policy');
    }
  });

  it("sends the page's security policy outside /api", async () => {
    const res = await api(ctx, { method: 'GET', url: '/no/such/page' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['permissions-policy']).toBe(
      'camera=(self), geolocation=(self), microphone=()',
    );
  });

  it('refuses cross-site API requests', async () => {
    const user = await signedInUser(ctx);
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/auth/me',
      token: user.token,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('does not answer HEAD on GET routes', async () => {
    const res = await api(ctx, { method: 'HEAD', url: '/api/health' });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/auth/hints', () => {
  it('offers no sample account when none was seeded', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/auth/hints' });
    expect(res.statusCode).toBe(200);
    expect(res.json().sample).toBeNull();
  });
});
