import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ SESSION_IDLE_MINUTES: '1' });
});
afterAll(async () => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const me = (token: string) => api(ctx, { method: 'GET', url: '/api/auth/me', token });

describe('the sliding idle window is measured from the last use', () => {
  it('keeps a session used every 10 s alive through 5 minutes with a 1-minute idle window', async () => {
    const user = await signedInUser(ctx);
    // Only Date is faked: timers, the database and inject keep running on real time.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const statuses: number[] = [];
    for (let second = 10; second <= 300; second += 10) {
      vi.setSystemTime(start + second * 1000);
      statuses.push((await me(user.token)).statusCode);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('ends a session unused for 61 s', async () => {
    const user = await signedInUser(ctx);
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    vi.setSystemTime(start + 30_000);
    expect((await me(user.token)).statusCode).toBe(200);
    vi.setSystemTime(start + 30_000 + 61_000);
    expect((await me(user.token)).statusCode).toBe(401);
  });
});
