import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let lines: Record<string, unknown>[] = [];
const destination = {
  write(line: string) {
    lines.push(JSON.parse(line) as Record<string, unknown>);
  },
};

beforeAll(async () => {
  ctx = await createTestContext({ LOG_LEVEL: 'info' }, { logDestination: destination });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(() => {
  lines = [];
});

describe('request log', () => {
  it('writes one line per request, with status and time, and no secrets', async () => {
    const member = await signedInUser(ctx);
    lines = [];
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/auth/me?token=abc&sig=0123',
      token: member.token,
    });
    expect(res.statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      pid: process.pid,
      hostname: expect.any(String),
      time: expect.any(Number),
      reqId: expect.any(String),
      req: { method: 'GET', url: '/api/auth/me?token=[redacted]&sig=[redacted]', ip: '127.0.0.1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(JSON.stringify(line)).not.toContain(member.token);
  });

  it('does not log a sign-in password', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: { email: 'nobody@example.com', password: 'a secret passphrase' } },
    });
    expect(res.statusCode).toBe(401);
    expect(lines.map((l) => (l.res as { statusCode: number } | undefined)?.statusCode)).toContain(
      401,
    );
    expect(JSON.stringify(lines)).not.toContain('a secret passphrase');
  });

  it('keeps health checks out of the log at info', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(lines).toEqual([]);
  });

  it("keeps the bell's unread polls out of the log at info", async () => {
    const member = await signedInUser(ctx);
    lines = [];
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/notifications/unread',
      token: member.token,
    });
    expect(res.statusCode).toBe(200);
    const again = await api(ctx, {
      method: 'GET',
      url: '/api/notifications/unread',
      token: member.token,
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(lines).toEqual([]);
  });
});
