// The create-admin CLI and the users API ask the same password policy, so a password gets the
// same verdict on either path (they had drifted: the CLI refused "ann" in Ann's password, the API
// allowed it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';
import { createAdminAccount } from './admin-account.js';

let ctx: TestContext;
let adminToken: string;
beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = (await signedInUser(ctx, { isAdmin: true })).token;
});
afterAll(async () => ctx.close());

let seq = 0;
const person = (password: string) => {
  seq += 1;
  return { email: `site.boss@example${seq}.com`, firstname: 'Ann', lastname: 'Lee', password };
};

/** The API's verdict: null when created, else the refusal's message. */
async function viaApi(password: string): Promise<string | null> {
  const res = await api(ctx, {
    method: 'POST',
    url: '/api/user/create',
    token: adminToken,
    payload: { user: person(password) },
  });
  if (res.statusCode === 200) return null;
  expect(res.statusCode, res.body).toBe(400);
  return res.json<{ message: string }>().message;
}

/** The CLI's verdict, the same way. */
async function viaCli(password: string): Promise<string | null> {
  try {
    await createAdminAccount(ctx.db, person(password));
    return null;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.message;
  }
}

describe('the password policy on the API and the create-admin CLI', () => {
  it.each([
    ['a three-letter first name in it', 'annie gravel trucks', /name or email/],
    ['the last name in it', 'gravel LEE trucks', /name or email/],
    ['the email name in it', 'my site.boss trucks', /name or email/],
    ['a common password', 'password123', /too common/],
    ['a well-known password with symbols', 'P@ssw0rd1', /too easy to guess\. This is similar/],
    ['the year after a common word', 'Welcome2024', /too easy to guess/],
    ['a short password', 'seven77', /at least 8/],
  ])('refuses a password with %s on both paths', async (_label, password, message) => {
    const fromApi = await viaApi(password);
    const fromCli = await viaCli(password);
    expect(fromApi).toMatch(message);
    expect(fromCli).toBe(fromApi);
  });

  it('accepts a passphrase on both paths', async () => {
    expect(await viaApi('gravel trucks at dawn')).toBeNull();
    expect(await viaCli('gravel trucks at dawn')).toBeNull();
  });
});
