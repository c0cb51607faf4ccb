import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createTestContext,
  login,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { buildUser, type TestUser } from '../../../test/factories.js';
import { isLoopbackHost, rememberSampleAccount } from './sample-account.js';

const NEW_PASSWORD = 'gravel trucks before dawn';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

function changePassword(
  context: TestContext,
  token: string | undefined,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return api(context, {
    method: 'POST',
    url: '/api/auth/password',
    payload: payload as object,
    token,
    headers,
  });
}

function tryLogin(context: TestContext, email: string, password: string) {
  return api(context, {
    method: 'POST',
    url: '/api/auth/login',
    payload: { login: { email, password } },
  });
}

const me = (context: TestContext, token: string) =>
  api(context, { method: 'GET', url: '/api/auth/me', token });

const hints = async (context: TestContext) => {
  const res = await api(context, { method: 'GET', url: '/api/auth/hints' });
  expect(res.statusCode).toBe(200);
  return (res.json() as { sample: { email: string; password: string } | null }).sample;
};

/**
 * A sample admin with a password of its own: retiring the sample password re-passwords every
 * account holding it, and the other users of this file share the default one.
 */
const samplePerson = () => ({ isAdmin: true, password: `site-${randomBytes(6).toString('hex')}` });

/** Makes `user` the sample admin the way seeding does: email, password and the hash at seeding. */
async function makeSampleAdmin(context: TestContext, user: TestUser): Promise<void> {
  const row = await context.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  await rememberSampleAccount(context, {
    email: user.email,
    password: user.password,
    passwordHash: row.password_hash,
  });
}

describe('POST /api/auth/password', () => {
  it('answers 401 when signed out', async () => {
    const res = await changePassword(ctx, undefined, {
      password: { current: 'whatever', next: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/sign in/i);
  });

  it('refuses a wrong current password with 403 and keeps the old one', async () => {
    const user = await signedInUser(ctx);
    const res = await changePassword(ctx, user.token, {
      password: { current: 'not my password', next: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'wrong_password',
      message: 'The current password is not correct.',
    });
    // A wrong current password must not end the session making the request.
    expect((await me(ctx, user.token)).statusCode).toBe(200);
    expect((await tryLogin(ctx, user.email, user.password)).statusCode).toBe(200);
    expect((await tryLogin(ctx, user.email, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it.each([
    ['too short', 'short1', /at least 8 characters/],
    ['too common', 'password123', /too common/],
    ['containing my name', 'Fernanda rocks 2026', /name or email/],
  ])('refuses a new password that is %s with 400 and the policy message', async (_l, next, re) => {
    const user = await signedInUser(ctx, { firstname: 'Fernanda' });
    const res = await changePassword(ctx, user.token, {
      password: { current: user.password, next },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('weak_password');
    expect(res.json().message).toMatch(re);
    expect((await tryLogin(ctx, user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses a new password equal to the current one', async () => {
    const user = await signedInUser(ctx);
    const res = await changePassword(ctx, user.token, {
      password: { current: user.password, next: user.password },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'same_password',
      message: 'The new password must be different from the current one.',
    });
  });

  it.each([
    ['an empty object', {}],
    ['a missing new password', { password: { current: 'x' } }],
    ['an empty new password', { password: { current: 'x', next: '' } }],
    ['wrong types', { password: { current: 1, next: ['x'] } }],
    ['a 257-character new password', { password: { current: 'x', next: 'a'.repeat(257) } }],
  ])('refuses %s with 400 and a message', async (_label, payload) => {
    const user = await signedInUser(ctx);
    const res = await changePassword(ctx, user.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.json().code).toBe('validation_failed');
  });

  it('changes the password: the new one signs in, the old one does not', async () => {
    const user = await signedInUser(ctx);
    const res = await changePassword(ctx, user.token, {
      password: { current: user.password, next: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await tryLogin(ctx, user.email, user.password)).statusCode).toBe(401);
    expect((await tryLogin(ctx, user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("ends the user's other sessions and keeps the current one", async () => {
    const user = await signedInUser(ctx);
    const otherDevice = await login(ctx, user);
    const someoneElse = await signedInUser(ctx);
    const res = await changePassword(ctx, user.token, {
      password: { current: user.password, next: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(ctx, user.token)).statusCode).toBe(200);
    const ended = await me(ctx, otherDevice);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().message).toMatch(/session has ended/i);
    // Other users' sessions are untouched.
    expect((await me(ctx, someoneElse.token)).statusCode).toBe(200);
  });
});

describe('POST /api/auth/password brute force', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
  });
  afterAll(async () => limited.close());

  it('counts wrong current passwords against the sign-in limit (429)', async () => {
    const user = await signedInUser(limited);
    for (let i = 0; i < 3; i++) {
      const res = await changePassword(limited, user.token, {
        password: { current: `wrong guess ${i}`, next: NEW_PASSWORD },
      });
      expect(res.statusCode).toBe(403);
    }
    const refused = await changePassword(limited, user.token, {
      password: { current: user.password, next: NEW_PASSWORD },
    });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same lockout holds for signing in to that account from the same address.
    expect((await tryLogin(limited, user.email, user.password)).statusCode).toBe(429);
  });
});

describe('GET /api/auth/hints and the sample account', () => {
  it('offers the untouched sample admin on a loopback HOST', async () => {
    const admin = await buildUser(ctx, samplePerson());
    await makeSampleAdmin(ctx, admin);
    expect(ctx.config.host).toBe('127.0.0.1');
    expect(await hints(ctx)).toEqual({ email: admin.email, password: admin.password });
  });

  it('stops offering the sample admin once its password is changed', async () => {
    const admin = await buildUser(ctx, samplePerson());
    await makeSampleAdmin(ctx, admin);
    expect((await hints(ctx))?.email).toBe(admin.email);
    const token = await login(ctx, admin);
    const res = await changePassword(ctx, token, {
      password: { current: admin.password, next: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(await hints(ctx)).toBeNull();
  });

  it('stops offering the sample admin once the account is deactivated', async () => {
    const admin = await buildUser(ctx, samplePerson());
    await makeSampleAdmin(ctx, admin);
    expect(await hints(ctx)).toEqual({ email: admin.email, password: admin.password });
    // Admins cannot be deactivated through the API; an operator can switch one off in the
    // database, and the login page must stop offering its password at once.
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', admin.id).execute();
    expect(await hints(ctx)).toBeNull();
  });

  it('never offers the sample admin when HOST is not a loopback address', async () => {
    const open = await createTestContext({ HOST: '0.0.0.0' });
    try {
      const admin = await buildUser(open, samplePerson());
      await makeSampleAdmin(open, admin);
      const res = await api(open, { method: 'GET', url: '/api/auth/hints' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ sample: null, placesProvider: 'offline' });
    } finally {
      await open.close();
    }
  });

  it.each([
    ['127.0.0.1', true],
    ['127.0.1.1', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['127.example.com', false],
    ['sitelog.example.com', false],
  ])('treats HOST %s as loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
