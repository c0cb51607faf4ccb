// The workspace's team name (issue 16): every member reads it, admins set it; a report's cover
// names it by default (`getTeamName`).
import type { ErrorResponse, Workspace } from '@sitelog/shared';
import { reportLimits } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { secretFingerprint } from '../../media/signed-urls.js';
import { checkSharedSecret, getTeamName, SECRET_MISMATCH } from './workspace.service.js';

let ctx: TestContext;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let admin: Person;
let member: Person;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, { isAdmin: true });
  member = await signedInUser(ctx);
});
afterAll(async () => ctx?.close());

const read = (token?: string) => api(ctx, { method: 'GET', url: '/api/workspace', token });
const patch = (body: unknown, token?: string) =>
  api(ctx, {
    method: 'PATCH',
    url: '/api/workspace',
    token,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

// One file, one database: the tests run in order and each leaves the name it set.
describe('GET /api/workspace', () => {
  it('refuses a signed-out caller (401)', async () => {
    expect((await read()).statusCode).toBe(401);
  });

  it('answers an empty team name until one is set, to members and admins', async () => {
    for (const token of [member.token, admin.token]) {
      const res = await read(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Workspace>()).toEqual({ teamName: '' });
    }
    expect(await getTeamName(ctx.db)).toBe('');
  });
});

describe('PATCH /api/workspace', () => {
  it('refuses a signed-out caller (401) and a member (403), changing nothing', async () => {
    expect((await patch({ teamName: 'Nope' })).statusCode).toBe(401);
    const res = await patch({ teamName: 'Nope' }, member.token);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toMatch(/admin/i);
    expect(await getTeamName(ctx.db)).toBe('');
  });

  it('sets the team name for an admin, trimmed; members then read it', async () => {
    const res = await patch({ teamName: '  Nordbau GmbH  ' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Workspace>()).toEqual({ teamName: 'Nordbau GmbH' });
    expect((await read(member.token)).json<Workspace>()).toEqual({ teamName: 'Nordbau GmbH' });
    expect(await getTeamName(ctx.db)).toBe('Nordbau GmbH');

    // A pasted line break becomes a space: the name is one line.
    const pasted = await patch({ teamName: 'Nordbau\nGmbH' }, admin.token);
    expect(pasted.json<Workspace>()).toEqual({ teamName: 'Nordbau GmbH' });

    // Set again: the one row is replaced.
    await patch({ teamName: 'Nordbau & Söhne <GmbH>' }, admin.token);
    expect(await getTeamName(ctx.db)).toBe('Nordbau & Söhne <GmbH>');
    const rows = await ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'team_name')
      .execute();
    expect(rows).toEqual([{ value: 'Nordbau & Söhne <GmbH>' }]);
  });

  it('refuses a bad body with 400 and a message, keeping the name', async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /team name/i],
      [{ teamName: 42 }, /team name must be text/i],
      [{ teamName: 'x'.repeat(reportLimits.teamNameMax + 1) }, /at most 120 characters/],
      [{ teamName: 'Nordbau\u0000GmbH' }, /control characters|valid text/],
      ['Nordbau', /The request must be \{ "teamName": "…" \}/],
    ];
    for (const [payload, message] of bad) {
      const res = await patch(payload, admin.token);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<ErrorResponse>().message).toMatch(message);
    }
    expect(await getTeamName(ctx.db)).toBe('Nordbau & Söhne <GmbH>');
  });

  it('clears the name with an empty one', async () => {
    const res = await patch({ teamName: '   ' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Workspace>()).toEqual({ teamName: '' });
    expect((await read(member.token)).json<Workspace>()).toEqual({ teamName: '' });
  });
});

describe('checkSharedSecret (at every start)', () => {
  const errors = () => {
    const logged: { obj: object; msg: string }[] = [];
    return { logged, log: { error: (obj: object, msg: string) => void logged.push({ obj, msg }) } };
  };
  const stored = async () =>
    (
      await ctx.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'secret_fingerprint')
        .executeTakeFirst()
    )?.value;
  const first = 'the-first-instance-secret-0123456789';
  const other = 'a-different-secret-for-another-instance';

  it("records the secret's fingerprint, not the secret, and says nothing for the same secret", async () => {
    const start = errors();
    await checkSharedSecret({ db: ctx.db, secret: first }, start.log);
    await checkSharedSecret({ db: ctx.db, secret: first }, start.log);
    expect(start.logged).toEqual([]);
    expect(await stored()).toBe(secretFingerprint(first));
    expect(await stored()).toMatch(/^[0-9a-f]{16}$/);
    expect(await stored()).not.toContain(first);
  });

  it('logs an error when another instance used another secret, then records its own', async () => {
    const start = errors();
    await checkSharedSecret({ db: ctx.db, secret: other }, start.log);
    expect(start.logged).toEqual([
      {
        obj: { fingerprint: secretFingerprint(other), otherFingerprint: secretFingerprint(first) },
        msg: SECRET_MISMATCH,
      },
    ]);
    expect(SECRET_MISMATCH).toBe(
      "This instance's SECRET differs from the one another instance of this database uses; media links signed by one are refused by the other. Give every instance the same SECRET.",
    );
    expect(await stored()).toBe(secretFingerprint(other));
  });
});
