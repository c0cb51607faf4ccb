import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, login, type TestContext } from '../../../test/helpers.js';
import { buildUser, type TestUser } from '../../../test/factories.js';
import { rememberSampleAccount } from './sample-account.js';

// Each test gets its own database: the sample members are found by the password hash they
// share with the sample admin, and test users share one hash too.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

const tryLogin = (email: string, password: string) =>
  api(ctx, { method: 'POST', url: '/api/auth/login', payload: { login: { email, password } } });

const sampleSetting = async () =>
  (
    await ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'sample_account')
      .executeTakeFirst()
  )?.value;

/** A sample workspace as seeding leaves it: an admin and members sharing one password. */
async function seedSamplePeople(): Promise<{ admin: TestUser; members: TestUser[] }> {
  await ctx.db.deleteFrom('sessions').execute();
  await ctx.db.deleteFrom('users').execute();
  const admin = await buildUser(ctx, { isAdmin: true });
  const members = [await buildUser(ctx), await buildUser(ctx)];
  const row = await ctx.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', admin.id)
    .executeTakeFirstOrThrow();
  await rememberSampleAccount(ctx, {
    email: admin.email,
    password: admin.password,
    passwordHash: row.password_hash,
  });
  return { admin, members };
}

describe('the published sample password after the admin takes over', () => {
  it("is no longer any sample member's password once the admin changes theirs", async () => {
    const { admin, members } = await seedSamplePeople();
    const own = await buildUser(ctx, { password: 'a password of her own choosing' });
    const [first, second] = members as [TestUser, TestUser];
    const memberToken = await login(ctx, first);
    expect(await sampleSetting()).toContain(admin.password);

    const adminToken = await login(ctx, admin);
    const changed = await api(ctx, {
      method: 'POST',
      url: '/api/auth/password',
      token: adminToken,
      payload: { password: { current: admin.password, next: 'gravel trucks before dawn' } },
    });
    expect(changed.statusCode).toBe(200);

    expect((await tryLogin(first.email, first.password)).statusCode).toBe(401);
    expect((await tryLogin(second.email, second.password)).statusCode).toBe(401);
    // A session opened with the published password ends too.
    expect(
      (await api(ctx, { method: 'GET', url: '/api/auth/me', token: memberToken })).statusCode,
    ).toBe(401);
    expect(await sampleSetting()).toBeUndefined();
    // Someone who had set a password of their own keeps it.
    expect((await tryLogin(own.email, own.password)).statusCode).toBe(200);
    expect((await tryLogin(admin.email, 'gravel trucks before dawn')).statusCode).toBe(200);
  });

  it('is retired as well when the sample admin is deactivated', async () => {
    const { admin, members } = await seedSamplePeople();
    const [first] = members as [TestUser];
    expect((await tryLogin(first.email, first.password)).statusCode).toBe(200);
    // Admins cannot be deactivated through the API; an operator can in the database.
    await ctx.db.updateTable('users').set({ is_active: 0 }).where('id', '=', admin.id).execute();
    const hints = await api(ctx, { method: 'GET', url: '/api/auth/hints' });
    expect(hints.json().sample).toBeNull();
    expect((await tryLogin(first.email, first.password)).statusCode).toBe(401);
    expect(await sampleSetting()).toBeUndefined();
  });
});
