// Invitations: an admin invites a member with a one-time link where the member sets their own
// password. Who may call what, the bad inputs, and the link's life: it works once, expires, ends
// when a new one is made, and is useless once the account is deactivated.
import { createHash } from 'node:crypto';
import {
  INVITATION_DAYS,
  type ErrorResponse as ErrorBody,
  type Invitation,
  type InvitationLink,
  type LoginResponse,
  type User,
} from '@sitelog/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  api,
  createTestContext,
  login,
  signedInUser,
  type TestContext,
} from '../../../test/helpers.js';
import { buildUser } from '../../../test/factories.js';
import { openSession } from '../auth/auth.service.js';
import { passwordProblem } from '../auth/passwords.js';
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
afterEach(() => {
  vi.useRealTimers();
});

// Long and unrelated to the invited names, so the password policy accepts it.
const GOOD_PASSWORD = 'copper lattice over tidewater 4417';
const DAY_MS = 24 * 3600_000;

const tag = () => Math.random().toString(36).slice(2, 8);

function invitePayload(overrides: Record<string, unknown> = {}) {
  return {
    email: `aisha-${tag()}@example.com`,
    firstname: 'Aisha',
    lastname: 'Khan',
    ...overrides,
  };
}

/** As the admin unless another token (or `null`: signed out) is given. */
const inviteCall = (payload: unknown, token: string | null = admin.token) =>
  api(ctx, {
    method: 'POST',
    url: '/api/user/invite',
    token: token ?? undefined,
    payload: payload as object,
  });
const reinviteCall = (id: number | string, token: string | null = admin.token) =>
  api(ctx, { method: 'POST', url: `/api/user/${id}/invite`, token: token ?? undefined });
const openLink = (token: string, options: { remoteAddress?: string; bearer?: string } = {}) =>
  api(ctx, {
    method: 'GET',
    url: `/api/invitation/${token}`,
    token: options.bearer,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
const accept = (token: string, password: unknown = GOOD_PASSWORD) =>
  api(ctx, {
    method: 'POST',
    url: `/api/invitation/${token}/accept`,
    payload: { password } as object,
  });

/** Invites a new member as the admin; answers the link and its token. */
async function invite(overrides: Record<string, unknown> = {}) {
  const res = await inviteCall({ user: invitePayload(overrides) });
  expect(res.statusCode, res.body).toBe(200);
  const link = res.json<InvitationLink>();
  return { ...link, token: link.path.replace('/invite/', '') };
}

const tokenOf = (link: InvitationLink) => link.path.replace('/invite/', '');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const userRow = (id: number) =>
  ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const invitationRows = (userId: number) =>
  ctx.db
    .selectFrom('invitations')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
const listed = async (id: number) => {
  const res = await api(ctx, { method: 'GET', url: '/api/user/all', token: admin.token });
  return res.json<User[]>().find((u) => u.id === id);
};
const me = (token: string) => api(ctx, { method: 'GET', url: '/api/auth/me', token });

describe('who may invite', () => {
  it('POST /api/user/invite: 401 signed out, 403 for a member, nothing made', async () => {
    const before = await countUsers(ctx.db);
    const signedOut = await inviteCall({ user: invitePayload() }, null);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json<ErrorBody>().message).toMatch(/sign in/i);
    const asMember = await inviteCall({ user: invitePayload() }, member.token);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json<ErrorBody>().message).toMatch(/only admins/i);
    expect(await countUsers(ctx.db)).toBe(before);
  });

  it('POST /api/user/{id}/invite: 401 signed out, 403 for a member, the link kept', async () => {
    const link = await invite();
    for (const [token, status] of [
      [null, 401],
      [member.token, 403],
    ] as const) {
      const res = await reinviteCall(link.user.id, token);
      expect(res.statusCode).toBe(status);
    }
    expect(await invitationRows(link.user.id)).toHaveLength(1);
    expect((await openLink(link.token)).statusCode).toBe(200);
  });

  it('lets the invited member use the public calls without a session, and ignores one', async () => {
    const link = await invite();
    expect((await openLink(link.token)).statusCode).toBe(200);
    // A signed-in member opening someone's link sees it too (the link is the credential).
    expect((await openLink(link.token, { bearer: member.token })).statusCode).toBe(200);
  });
});

describe('POST /api/user/invite', () => {
  it('makes an active account nobody can sign in to, and a link valid for 7 days', async () => {
    const email = `Aisha.Khan-${tag()}@Example.COM`;
    const before = Date.now();
    const res = await inviteCall({
      user: { email: `  ${email} `, firstname: ' Aisha ', lastname: 'Khan' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<InvitationLink>();
    expect(link.user).toEqual({
      id: link.user.id,
      email: email.toLowerCase(),
      firstname: 'Aisha',
      lastname: 'Khan',
      isAdmin: false,
      isActive: true,
      invitePending: true,
      inviteExpiresAt: link.expiresAt,
    });
    expect(link.path).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + INVITATION_DAYS * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + INVITATION_DAYS * DAY_MS);

    const row = await userRow(link.user.id);
    expect(row.is_active).toBe(1);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // Nobody knows the password: it is neither the token nor the test users' one.
    for (const password of [tokenOf(link), 'correct horse battery staple']) {
      const res = await api(ctx, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { login: { email: link.user.email, password } },
      });
      expect(res.statusCode).toBe(401);
    }
    expect(await listed(link.user.id)).toMatchObject({
      invitePending: true,
      inviteExpiresAt: link.expiresAt,
    });
  });

  it('stores only the hash of the token', async () => {
    const link = await invite();
    const token = tokenOf(link);
    const rows = await invitationRows(link.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      token_hash: sha256(token),
      created_by: admin.id,
      used_at: null,
      expires_at: link.expiresAt,
    });
    expect(JSON.stringify(rows)).not.toContain(token);
    // Two invitations never share a token.
    expect(tokenOf(await invite())).not.toBe(token);
  });

  it('refuses an email that is taken, in any letter case, as the create call does', async () => {
    const existing = await buildUser(ctx);
    const before = await countUsers(ctx.db);
    const res = await inviteCall({ user: invitePayload({ email: existing.email.toUpperCase() }) });
    expect(res.statusCode).toBe(409);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/user/create',
      token: admin.token,
      payload: { user: { ...invitePayload({ email: existing.email }), password: GOOD_PASSWORD } },
    });
    expect(created.statusCode).toBe(409);
    expect(res.json<ErrorBody>()).toMatchObject({
      code: 'email_taken',
      message: created.json<ErrorBody>().message,
    });
    expect(await countUsers(ctx.db)).toBe(before);
  });

  it.each([
    ['no body', undefined, /user object/i],
    ['no user', {}, /user object/i],
    ['no email', { user: { firstname: 'A', lastname: 'B' } }, /^Email is required\.$/],
    ['a bad email', { user: invitePayload({ email: 'not-an-email' }) }, /not a valid address/],
    ['a blank first name', { user: invitePayload({ firstname: '  ' }) }, /First name is required/],
    ['no last name', { user: invitePayload({ lastname: undefined }) }, /Last name is required/],
    ['a long name', { user: invitePayload({ lastname: 'x'.repeat(500) }) }, /at most/],
  ])('answers %s with 400 and a message, making nothing', async (_label, payload, message) => {
    const before = await countUsers(ctx.db);
    const res = await inviteCall(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toMatch(message);
    expect(await countUsers(ctx.db)).toBe(before);
  });
});

describe('GET /api/invitation/{token}', () => {
  it('says who the link is for and until when', async () => {
    const link = await invite({ firstname: 'Zoë', lastname: 'Ødegård' });
    const res = await openLink(link.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<Invitation>()).toEqual({
      email: link.user.email,
      firstname: 'Zoë',
      lastname: 'Ødegård',
      expiresAt: link.expiresAt,
    });
  });

  it('answers an unknown link with 404 and a malformed one with 400, each with a message', async () => {
    const unknown = await openLink('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>()).toMatchObject({
      code: 'invitation_not_found',
      message: expect.stringMatching(/not valid.*ask your admin/i),
    });
    for (const bad of [
      'short',
      'has.dots.and~tildes.in.it',
      'abc%20def%3Cscript%3E'.padEnd(30, 'x'),
    ]) {
      const res = await openLink(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json<ErrorBody>().message).toBe('The invitation link is incomplete.');
    }
  });

  it('limits how many unknown links an address may try, with the sign-in limit per IP', async () => {
    const remoteAddress = '203.0.113.77';
    const link = await invite();
    for (let i = 0; i < ctx.config.loginLimits.perIp; i += 1) {
      const res = await openLink(`${'B'.repeat(40)}${String(i).padStart(3, '0')}`, {
        remoteAddress,
      });
      expect(res.statusCode).toBe(404);
    }
    const blocked = await openLink(link.token, { remoteAddress });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.json<ErrorBody>().message).toMatch(/too many failed attempts/i);
    // Another address is not held back, and a real link is not a guess.
    expect((await openLink(link.token)).statusCode).toBe(200);
    expect((await openLink(link.token)).statusCode).toBe(200);
  });
});

describe('POST /api/invitation/{token}/accept', () => {
  it('sets the password, signs the member in, and works once', async () => {
    const link = await invite();
    const before = await userRow(link.user.id);
    const res = await accept(link.token);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json<LoginResponse>();
    expect(session).toEqual({
      id: link.user.id,
      firstname: 'Aisha',
      lastname: 'Khan',
      email: link.user.email,
      isAdmin: false,
      isActive: true,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect((await me(session.token)).statusCode).toBe(200);

    const after = await userRow(link.user.id);
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(after.password_hash).toMatch(/^\$argon2id\$/);
    const token = await login(ctx, { email: link.user.email, password: GOOD_PASSWORD });
    expect((await me(token)).statusCode).toBe(200);
    const [row] = await invitationRows(link.user.id);
    expect(Date.parse(row?.used_at ?? '')).not.toBeNaN();

    for (const again of [
      await accept(link.token, 'another long passphrase 9021'),
      await openLink(link.token),
    ]) {
      expect(again.statusCode).toBe(410);
      expect(again.json<ErrorBody>()).toMatchObject({
        code: 'invitation_used',
        message: expect.stringMatching(/already been used/),
      });
    }
    // The second try changed nothing.
    expect((await userRow(link.user.id)).password_hash).toBe(after.password_hash);
    const user = await listed(link.user.id);
    expect(user).not.toHaveProperty('invitePending');
    expect(user).not.toHaveProperty('inviteExpiresAt');
  });

  it('lets one of two racing acceptances win', async () => {
    const link = await invite();
    const results = await Promise.all([
      accept(link.token, GOOD_PASSWORD),
      accept(link.token, 'harbour crane at midnight 5512'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410]);
    const sessions = await ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', link.user.id)
      .execute();
    expect(sessions).toHaveLength(1);
    const winner = results.findIndex((r) => r.statusCode === 200);
    const password = winner === 0 ? GOOD_PASSWORD : 'harbour crane at midnight 5512';
    expect(await login(ctx, { email: link.user.email, password })).toBeTruthy();
  });

  it('ends every other session of the account', async () => {
    const link = await invite();
    const row = await userRow(link.user.id);
    const earlier = await openSession(ctx, row);
    expect((await me(earlier.token)).statusCode).toBe(200);
    const res = await accept(link.token);
    expect(res.statusCode).toBe(200);
    expect((await me(earlier.token)).statusCode).toBe(401);
    expect((await me(res.json<LoginResponse>().token)).statusCode).toBe(200);
  });

  it('refuses a weak password with the policy’s own message, leaving the link usable', async () => {
    const link = await invite({ firstname: 'Aisha', lastname: 'Khan' });
    const owner = { firstname: 'Aisha', lastname: 'Khan', email: link.user.email };
    for (const weak of ['password1', 'aishakhan2024', 'Kx7!p2L', 'x'.repeat(300)]) {
      const res = await accept(link.token, weak);
      expect(res.statusCode, weak).toBe(400);
      const body = res.json<ErrorBody>();
      // The same words the policy (and every other password form) gives.
      const expected = await passwordProblem(weak, owner);
      expect(expected).not.toBeNull();
      expect(body.message).toBe(expected);
    }
    const missing = await api(ctx, {
      method: 'POST',
      url: `/api/invitation/${link.token}/accept`,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ErrorBody>().message).toBe('Password is required.');
    const notText = await accept(link.token, 12345678);
    expect(notText.statusCode).toBe(400);
    expect(notText.json<ErrorBody>().message).toBe('Password must be text.');
    expect((await invitationRows(link.user.id))[0]?.used_at).toBeNull();
    expect((await accept(link.token)).statusCode).toBe(200);
  });

  it('answers an unknown link with 404 and changes nothing', async () => {
    const res = await accept('C'.repeat(43));
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorBody>().message).toMatch(/not valid/);
  });
});

describe('expiry', () => {
  it('works until 7 days after the invitation, then answers that it has expired', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const link = await invite();
    vi.setSystemTime(start + INVITATION_DAYS * DAY_MS - 60_000);
    expect((await openLink(link.token)).statusCode).toBe(200);
    vi.setSystemTime(start + INVITATION_DAYS * DAY_MS + 1);
    for (const res of [await openLink(link.token), await accept(link.token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json<ErrorBody>()).toEqual({
        code: 'invitation_expired',
        message: 'This invitation link has expired. Ask your admin for a new one.',
        requestId: expect.any(String),
      });
    }
    // Still invited: the admin can make a new link.
    expect(await listed(link.user.id)).toMatchObject({ invitePending: true });
  });

  it('refuses a link whose expiry passed while it was being accepted', async () => {
    const link = await invite();
    await ctx.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', link.user.id)
      .execute();
    const res = await accept(link.token);
    expect(res.statusCode).toBe(410);
    expect(res.json<ErrorBody>().code).toBe('invitation_expired');
    expect((await userRow(link.user.id)).password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('deactivation', () => {
  it('makes the link useless, and it stays so after a reactivation', async () => {
    const link = await invite();
    const off = await api(ctx, {
      method: 'DELETE',
      url: `/api/user/${link.user.id}`,
      token: admin.token,
    });
    expect(off.statusCode).toBe(200);
    for (const res of [await openLink(link.token), await accept(link.token)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json<ErrorBody>()).toMatchObject({
        code: 'invitation_deactivated',
        message: expect.stringMatching(/deactivated/),
      });
    }
    const renew = await reinviteCall(link.user.id);
    expect(renew.statusCode).toBe(409);
    expect(renew.json<ErrorBody>().message).toMatch(/activate the account/i);

    const on = await api(ctx, {
      method: 'GET',
      url: `/api/user/${link.user.id}/activate`,
      token: admin.token,
    });
    expect(on.statusCode).toBe(200);
    expect(on.json<User>()).toMatchObject({ isActive: true, invitePending: true });
    const old = await accept(link.token);
    expect(old.statusCode).toBe(410);
    expect(old.json<ErrorBody>().code).toBe('invitation_expired');

    const fresh = await reinviteCall(link.user.id);
    expect(fresh.statusCode).toBe(200);
    expect((await accept(tokenOf(fresh.json<InvitationLink>()))).statusCode).toBe(200);
  });

  it('refuses an acceptance once the account is deactivated, even with the link read before', async () => {
    const link = await invite();
    expect((await openLink(link.token)).statusCode).toBe(200);
    await ctx.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', link.user.id)
      .execute();
    const res = await accept(link.token);
    expect(res.statusCode).toBe(410);
    expect(
      await ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', link.user.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('POST /api/user/{id}/invite', () => {
  it('makes a new link and ends the older one', async () => {
    const first = await invite();
    const res = await reinviteCall(first.user.id);
    expect(res.statusCode).toBe(200);
    const second = res.json<InvitationLink>();
    expect(second.user).toMatchObject({
      id: first.user.id,
      invitePending: true,
      inviteExpiresAt: second.expiresAt,
    });
    expect(tokenOf(second)).not.toBe(first.token);
    const old = await openLink(first.token);
    expect(old.statusCode).toBe(410);
    expect(old.json<ErrorBody>().code).toBe('invitation_expired');
    expect((await openLink(tokenOf(second))).statusCode).toBe(200);
    expect((await accept(tokenOf(second))).statusCode).toBe(200);
    expect((await accept(first.token)).statusCode).toBe(410);
  });

  it('refuses a member who set their password through a link, or was created with one', async () => {
    const link = await invite({ firstname: 'Ines', lastname: 'Ibarra' });
    expect((await accept(link.token)).statusCode).toBe(200);
    const accepted = await reinviteCall(link.user.id);
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json<ErrorBody>()).toMatchObject({
      code: 'invitation_accepted',
      message: 'Ines Ibarra already set their password through an invitation link.',
    });

    const withPassword = await buildUser(ctx, { firstname: 'Pia', lastname: 'Password' });
    const res = await reinviteCall(withPassword.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<ErrorBody>()).toMatchObject({
      code: 'not_invited',
      message: expect.stringMatching(/^Pia Password was created with a password/),
    });
    expect(await invitationRows(withPassword.id)).toEqual([]);
  });

  it.each([
    ['an unknown id', '999999', 404, /member was not found/i],
    ['a non-numeric id', 'abc', 400, /must be a number/i],
  ])('answers %s with %i', async (_label, id, status, message) => {
    const res = await reinviteCall(id);
    expect(res.statusCode).toBe(status);
    expect(res.json<ErrorBody>().message).toMatch(message);
  });
});
