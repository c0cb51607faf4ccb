import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/helpers.js';
import { compiledQuery } from './compiled-query.js';
import type { Database } from './database.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('compiledQuery', () => {
  it('builds once per database and answers like the Kysely query, value by value', async () => {
    const alice = await buildUser(ctx, { firstname: 'Alice' });
    const bob = await buildUser(ctx, { firstname: 'Bob' });
    for (const creatorId of [alice.id, alice.id, bob.id]) await buildProject(ctx, { creatorId });
    let builds = 0;
    const build = (db: Database, creatorId: number, name: string, limit: number) => {
      builds += 1;
      return db
        .selectFrom('projects')
        .innerJoin('users', 'users.id', 'projects.creator_id')
        .select(['projects.id', 'users.firstname'])
        .where('projects.creator_id', '=', creatorId)
        .where((eb) => eb.or([eb('users.firstname', '=', name), eb('users.lastname', '=', name)]))
        .orderBy('projects.id')
        .limit(limit);
    };
    const query = compiledQuery(build, 3);
    for (const [user, name, limit] of [
      [alice, 'Alice', 10],
      [alice, 'Alice', 1],
      [bob, 'Bob', 10],
      [alice, 'Bob', 10],
    ] as const) {
      const expected = await build(ctx.db, user.id, name, limit).execute();
      expect(await query(ctx.db, user.id, name, limit)).toEqual(expected);
    }
    // Four direct builds above, and one for the compiled query.
    expect(builds).toBe(5);
  });

  it('refuses a value that does not reach the SQL as a parameter of its own', async () => {
    const query = compiledQuery(
      (db: Database, _unused: number) => db.selectFrom('users').select('id').limit(1),
      1,
    );
    await expect(query(ctx.db, 1)).rejects.toThrow(/argument 0 does not reach the SQL/);
  });
});
