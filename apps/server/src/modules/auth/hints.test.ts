import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '../../../test/helpers.js';
import { buildUser, type TestUser } from '../../../test/factories.js';
import { rememberSampleAccount } from './sample-account.js';

let ctx: TestContext;
let admin: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = await buildUser(ctx, { isAdmin: true });
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
});
afterAll(async () => ctx.close());

async function sampleFor(remoteAddress: string, headers: Record<string, string> = {}) {
  const res = await api(ctx, { method: 'GET', url: '/api/auth/hints', remoteAddress, headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { sample: { email: string; password: string } | null }).sample;
}

describe('GET /api/auth/hints decides from the request, not only from HOST', () => {
  it.each(['127.0.0.1', '127.0.1.1', '::1', '::ffff:127.0.0.1'])(
    'offers the sample admin to a browser on this machine (%s) with no proxy in between',
    async (peer) => {
      expect(await sampleFor(peer)).toEqual({ email: admin.email, password: admin.password });
    },
  );

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '203.0.113.9' }],
    ['X-Forwarded-For naming loopback', { 'x-forwarded-for': '127.0.0.1' }],
    ['Forwarded', { forwarded: 'for=203.0.113.9;proto=https' }],
    ['X-Real-IP', { 'x-real-ip': '203.0.113.9' }],
    ['an empty X-Forwarded-For', { 'x-forwarded-for': '' }],
  ])('hides it when a local reverse proxy forwards the request (%s)', async (_label, headers) => {
    expect(await sampleFor('127.0.0.1', headers)).toBeNull();
  });

  it.each(['203.0.113.9', '192.168.1.20', '::ffff:10.0.0.1', '2001:db8::1'])(
    'hides it from a peer that is not loopback (%s)',
    async (peer) => {
      expect(await sampleFor(peer)).toBeNull();
    },
  );
});
