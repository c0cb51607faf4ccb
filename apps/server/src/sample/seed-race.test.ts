import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/helpers.js';
import { seedSampleWorkspace } from './sample-workspace.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('seedSampleWorkspace', () => {
  it('seeds once when two starts race, and never again on a workspace with users', async () => {
    const results = await Promise.all([seedSampleWorkspace(ctx), seedSampleWorkspace(ctx)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const users = await ctx.db.selectFrom('users').select('email').execute();
    expect(users).toHaveLength(5);
    const settings = await ctx.db.selectFrom('settings').selectAll().execute();
    expect(settings.map((s) => s.key)).toContain('sample_account');
    expect(await seedSampleWorkspace(ctx)).toBeNull();
  });
});
