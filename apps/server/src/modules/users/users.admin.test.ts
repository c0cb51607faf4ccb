// The admin's user management: who may call it, the list, creating members, (de)activating them.
import type { ErrorResponse as ErrorBody, Project, ProjectRow, User } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createTestContext,
  login,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { buildUser } from '../../../test/factories.js';
import { isSessionLive } from '../auth/auth.service.js';
import { hashToken } from '../auth/tokens.js';
import { countUsers } from './users.repository.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let admin: Member;
let member: Member;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, { firstname: 'Ada', lastname: 'Admin', isAdmin: true });
  member = await signedInUser(ctx, { firstname: 'Mia', lastname: 'Member' });
});
afterAll(async () => ctx.close());

const get = (url: string, token?: string) => api(ctx, { method: 'GET', url, token });
const deactivate = (id: number | string, token?: string) =>
  api(ctx, { method: 'DELETE', url: `/api/user/${id}`, token });
const activate = (id: number | string, token?: string) => get(`/api/user/${id}/activate`, token);
/** Posts a new user, as the admin unless another token (or `null`: signed out) is given. */
const createUserCall = (payload: unknown, token: string | null = admin.token) =>
  api(ctx, {
    method: 'POST',
    url: '/api/user/create',
    token: token ?? undefined,
    payload: payload as object,
  });

function newUserPayload(overrides: Record<string, unknown> = {}) {
  const tag = Math.random().toString(36).slice(2, 8);
  return {
    email: `new-${tag}@example.com`,
    firstname: 'Nora',
    lastname: 'Newton',
    password: 'gravel trucks at dawn',
    ...overrides,
  };
}

async function sessionIdOf(token: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('who may call what', () => {
  const adminCalls: [string, (id: number, token?: string) => ReturnType<typeof get>][] = [
    ['GET /api/user/all', (_id, token) => get('/api/user/all', token)],
    [
      'POST /api/user/create',
      (_id, token) => createUserCall({ user: newUserPayload() }, token ?? null),
    ],
    ['DELETE /api/user/{id}', (id, token) => deactivate(id, token)],
    ['GET /api/user/{id}/activate', (id, token) => activate(id, token)],
  ];

  it.each(adminCalls)('%s: 401 signed out, 403 for a member', async (_name, call) => {
    const target = await buildUser(ctx);
    const before = await countUsers(ctx.db);
    const signedOut = await call(target.id, undefined);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json<ErrorBody>().message).toMatch(/sign in/i);
    const asMember = await call(target.id, member.token);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json<ErrorBody>().message).toMatch(/only admins/i);
    expect(await countUsers(ctx.db)).toBe(before);
    const row = await ctx.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(1);
  });

  it.each([
    ['GET /api/user/profile/{id}', () => `/api/user/profile/${admin.id}`],
    ['GET /api/user/all/profile', () => '/api/user/all/profile'],
  ])('%s: 401 signed out, 200 for any member', async (_name, url) => {
    expect((await get(url())).statusCode).toBe(401);
    expect((await get(url(), member.token)).statusCode).toBe(200);
    expect((await get(url(), admin.token)).statusCode).toBe(200);
  });

  it('refuses a cross-site activation and never answers HEAD on it', async () => {
    const target = await buildUser(ctx, { isActive: false });
    const cross = await api(ctx, {
      method: 'GET',
      url: `/api/user/${target.id}/activate`,
      token: admin.token,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
    const head = await api(ctx, {
      method: 'HEAD',
      url: `/api/user/${target.id}/activate`,
      token: admin.token,
    });
    expect(head.statusCode).toBe(404);
    const row = await ctx.db
      .selectFrom('users')
      .select('is_active')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(0);
  });
});

describe('GET /api/user/all', () => {
  it('lists every non-admin account, active or not, and hides admins', async () => {
    const otherAdmin = await buildUser(ctx, { isAdmin: true });
    const gone = await buildUser(ctx, { firstname: 'Gus', lastname: 'Gone', isActive: false });
    const res = await get('/api/user/all', admin.token);
    expect(res.statusCode).toBe(200);
    const list = res.json<User[]>();
    const ids = list.map((u) => u.id);
    expect(ids).not.toContain(admin.id);
    expect(ids).not.toContain(otherAdmin.id);
    expect(list.every((u) => u.isAdmin === false)).toBe(true);
    expect(list.find((u) => u.id === gone.id)).toEqual({
      id: gone.id,
      firstname: 'Gus',
      lastname: 'Gone',
      email: gone.email,
      isAdmin: false,
      isActive: false,
    });
    expect(list.find((u) => u.id === member.id)).toMatchObject({ isActive: true });
    const nonAdmins = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('is_admin', '=', 0)
      .execute();
    expect(ids.sort((a, b) => a - b)).toEqual(nonAdmins.map((u) => u.id).sort((a, b) => a - b));
  });
});

describe('POST /api/user/create', () => {
  it('creates an active member with a normalised email who can then sign in', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const res = await createUserCall({
      user: {
        email: `  Nora.Newton-${tag}@Example.COM `,
        firstname: '  Nora ',
        lastname: 'Newton',
        password: 'gravel trucks at dawn',
      },
    });
    expect(res.statusCode).toBe(200);
    const created = res.json<User>();
    expect(typeof created.id).toBe('number');
    expect(created).toEqual({
      id: created.id,
      email: `nora.newton-${tag}@example.com`,
      firstname: 'Nora',
      lastname: 'Newton',
      isAdmin: false,
      isActive: true,
    });
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('gravel');
    const token = await login(ctx, { email: created.email, password: 'gravel trucks at dawn' });
    expect((await get('/api/auth/me', token)).json()).toMatchObject({ id: created.id });
    const listed = (await get('/api/user/all', admin.token)).json<User[]>();
    expect(listed.map((u) => u.id)).toContain(created.id);
  });

  it.each([
    ['an empty body', {}, /user object/i],
    ['a user that is not an object', { user: 'nora' }, /user object/i],
    ['a missing email', { user: newUserPayload({ email: undefined }) }, /email is required/i],
    [
      'a missing first name',
      { user: newUserPayload({ firstname: undefined }) },
      /first name is required/i,
    ],
    [
      'a missing last name',
      { user: newUserPayload({ lastname: undefined }) },
      /last name is required/i,
    ],
    [
      'a missing password',
      { user: newUserPayload({ password: undefined }) },
      /password is required/i,
    ],
    ['an empty email', { user: newUserPayload({ email: '  ' }) }, /email is required/i],
    [
      'an empty first name',
      { user: newUserPayload({ firstname: ' ' }) },
      /first name is required/i,
    ],
    ['an empty last name', { user: newUserPayload({ lastname: '' }) }, /last name is required/i],
    ['an empty password', { user: newUserPayload({ password: '' }) }, /at least 8/i],
    [
      'an over-long first name',
      { user: newUserPayload({ firstname: 'f'.repeat(81) }) },
      /at most 80/,
    ],
    [
      'an over-long last name',
      { user: newUserPayload({ lastname: 'l'.repeat(81) }) },
      /at most 80/,
    ],
    [
      'an over-long email',
      { user: newUserPayload({ email: `${'e'.repeat(250)}@example.com` }) },
      /at most 254/,
    ],
    [
      'an over-long password',
      { user: newUserPayload({ password: 'p'.repeat(120) + ' '.repeat(20) + 'q'.repeat(117) }) },
      /at most 256/,
    ],
    ['a numeric first name', { user: newUserPayload({ firstname: 42 }) }, /must be text/i],
    ['an array as email', { user: newUserPayload({ email: ['a@b.c'] }) }, /must be text/i],
    ['a numeric password', { user: newUserPayload({ password: 12345678 }) }, /must be text/i],
    ['an invalid email', { user: newUserPayload({ email: 'nora-at-example.com' }) }, /valid/i],
    ['a short password', { user: newUserPayload({ password: 'seven77' }) }, /at least 8/i],
    ['a common password', { user: newUserPayload({ password: 'Password123' }) }, /too common/i],
    ['a repeated character', { user: newUserPayload({ password: 'aaaaaaaaaaaa' }) }, /too common/i],
    [
      'a password holding the last name',
      { user: newUserPayload({ lastname: 'Kowalczyk', password: 'kowalczyk2024!' }) },
      /name or email/i,
    ],
  ])('refuses %s with 400 and a message, creating nothing', async (_label, payload, message) => {
    const before = await countUsers(ctx.db);
    const res = await createUserCall(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorBody>();
    expect(body.message).toMatch(message);
    expect(body.code).toBeTruthy();
    expect(await countUsers(ctx.db)).toBe(before);
  });

  it('accepts long passphrases and needs no composition rules', async () => {
    const passphrase =
      'the crane operator waves at the concrete mixer every single morning '.repeat(3);
    const res = await createUserCall({ user: newUserPayload({ password: passphrase.trim() }) });
    expect(res.statusCode).toBe(200);
    const lower = await createUserCall({ user: newUserPayload({ password: 'scaffoldingpoles' }) });
    expect(lower.statusCode).toBe(200);
  });

  it('refuses a taken email in any letter case with 409, creating nothing', async () => {
    const first = await createUserCall({ user: newUserPayload() });
    expect(first.statusCode).toBe(200);
    const email = first.json<User>().email;
    const before = await countUsers(ctx.db);
    for (const variant of [
      email,
      email.toUpperCase(),
      `  ${email.replace(/^./, (c) => c.toUpperCase())}`,
    ]) {
      const res = await createUserCall({ user: newUserPayload({ email: variant }) });
      expect(res.statusCode).toBe(409);
      expect(res.json<ErrorBody>().message).toMatch(/already exists/i);
    }
    expect(await countUsers(ctx.db)).toBe(before);
  });

  it('refuses the email of an admin account too', async () => {
    const res = await createUserCall({
      user: newUserPayload({ email: admin.email.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
  });

  it('lets exactly one of two simultaneous creations with the same email win', async () => {
    const email = `race-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const before = await countUsers(ctx.db);
    const results = await Promise.all([
      createUserCall({ user: newUserPayload({ email }) }),
      createUserCall({ user: newUserPayload({ email: email.toUpperCase() }) }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409);
    expect(loser?.json<ErrorBody>().message).toMatch(/already exists/i);
    expect(await countUsers(ctx.db)).toBe(before + 1);
  });
});

describe('DELETE /api/user/{id} and GET /api/user/{id}/activate', () => {
  it('deactivates a member, ending every session and media link at once', async () => {
    const target = await signedInUser(ctx, { firstname: 'Dora', lastname: 'Dust' });
    const secondToken = await login(ctx, target);
    const sessions = [await sessionIdOf(target.token), await sessionIdOf(secondToken)];
    expect((await get('/api/auth/me', target.token)).statusCode).toBe(200);

    const res = await deactivate(target.id, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: target.id,
      firstname: 'Dora',
      lastname: 'Dust',
      email: target.email,
      isAdmin: false,
      isActive: false,
    });
    for (const token of [target.token, secondToken]) {
      const me = await get('/api/auth/me', token);
      expect(me.statusCode).toBe(401);
    }
    // Media URLs are bound to sessions and checked with isSessionLive.
    for (const id of sessions) expect(await isSessionLive(ctx, id)).toBe(false);
    const revoked = await ctx.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', target.id)
      .execute();
    expect(revoked.every((s) => s.revoked_at !== null)).toBe(true);
    const row = await ctx.db
      .selectFrom('users')
      .select(['is_active', 'deactivated_at'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(0);
    expect(Date.parse(row.deactivated_at ?? '')).not.toBeNaN();
  });

  it('refuses sign-in while deactivated and allows it after activation, old tokens staying dead', async () => {
    const target = await signedInUser(ctx);
    expect((await deactivate(target.id, admin.token)).statusCode).toBe(200);
    const refused = await api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: { email: target.email, password: target.password } },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<ErrorBody>().message).toMatch(/deactivated/i);

    const res = await activate(target.id, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, isActive: true, isAdmin: false });
    const row = await ctx.db
      .selectFrom('users')
      .select(['is_active', 'deactivated_at'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_active: 1, deactivated_at: null });

    expect((await get('/api/auth/me', target.token)).statusCode).toBe(401);
    const fresh = await login(ctx, target);
    expect((await get('/api/auth/me', fresh)).statusCode).toBe(200);
  });

  it('keeps sessions from before dead even when the account was switched off outside the API', async () => {
    const target = await signedInUser(ctx);
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', target.id).execute();
    expect((await activate(target.id, admin.token)).statusCode).toBe(200);
    expect((await get('/api/auth/me', target.token)).statusCode).toBe(401);
  });

  it('answers idempotently when deactivating twice or activating an active member', async () => {
    const target = await signedInUser(ctx);
    expect((await deactivate(target.id, admin.token)).statusCode).toBe(200);
    const first = await ctx.db
      .selectFrom('users')
      .select('deactivated_at')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    const again = await deactivate(target.id, admin.token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: target.id, isActive: false });
    const second = await ctx.db
      .selectFrom('users')
      .select('deactivated_at')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(second.deactivated_at).toBe(first.deactivated_at);

    expect((await activate(target.id, admin.token)).statusCode).toBe(200);
    const token = await login(ctx, target);
    const twice = await activate(target.id, admin.token);
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toMatchObject({ id: target.id, isActive: true });
    // Activating an active member must not end the session they just opened.
    expect((await get('/api/auth/me', token)).statusCode).toBe(200);
  });

  it('refuses to let an admin deactivate themselves, even as the last active admin', async () => {
    const fresh = await createTestContext();
    try {
      const only = await signedInUser(fresh, { isAdmin: true });
      const res = await api(fresh, {
        method: 'DELETE',
        url: `/api/user/${only.id}`,
        token: only.token,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json<ErrorBody>().message).toMatch(/your own account/i);
      expect(
        (await api(fresh, { method: 'GET', url: '/api/auth/me', token: only.token })).statusCode,
      ).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it('refuses to deactivate another admin account', async () => {
    const other = await signedInUser(ctx, { isAdmin: true });
    const res = await deactivate(other.id, admin.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorBody>().message).toMatch(/admin accounts cannot be deactivated/i);
    expect((await get('/api/auth/me', other.token)).statusCode).toBe(200);
  });

  it.each([
    ['an unknown id', '999999', 404, /member was not found/i],
    ['a non-numeric id', 'abc', 400, /must be a number/i],
    ['zero', '0', 400, /positive/i],
    ['a fraction', '1.5', 400, /whole number/i],
    ['a huge id', '99999999999', 400, /too large/i],
  ])('answers %s with %i on both calls', async (_label, id, status, message) => {
    for (const res of [await deactivate(id, admin.token), await activate(id, admin.token)]) {
      expect(res.statusCode).toBe(status);
      expect(res.json<ErrorBody>().message).toMatch(message);
    }
  });

  it('keeps a deactivated member’s projects listed and attributed to them', async () => {
    const builder = await signedInUser(ctx, { firstname: 'Bea', lastname: 'Builder' });
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: builder.token,
      payload: { project: { name: 'Canal lock', location: 'Leiden, Netherlands' } },
    });
    expect(created.statusCode).toBe(200);
    const projectId = created.json<Project>().id;
    expect((await deactivate(builder.id, admin.token)).statusCode).toBe(200);

    const project = await get(`/api/project/id/${projectId}`, member.token);
    expect(project.statusCode).toBe(200);
    expect(project.json<Project>().creator).toEqual({
      id: builder.id,
      firstname: 'Bea',
      lastname: 'Builder',
    });
    const ofMember = await get(`/api/project/profile/${builder.id}`, member.token);
    expect(ofMember.json<Project[]>().map((p) => p.id)).toEqual([projectId]);
    const rows = (await get('/api/project/all/list', member.token)).json<ProjectRow[]>();
    expect(rows.find((r) => r[0] === projectId)?.[5]).toBe('Bea Builder');
    const profile = await get(`/api/user/profile/${builder.id}`, member.token);
    expect(profile.json()).toMatchObject({ isActive: false, projectsCount: 1 });
  });
});
