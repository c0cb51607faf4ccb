/**
 * All-projects table at scale: GET /api/project/all/list with 10,000 projects.
 *
 *   npx tsx bench/projects.ts            (SQLite, a fresh temporary database)
 *   TEST_DB=postgres TEST_DATABASE_URL=postgres://… npx tsx bench/projects.ts
 *
 * Seeds 10,000 projects by direct batched inserts, then times the call through `app.inject`
 * (routing, session check, query, mapping, response serialization with the Zod schema) against
 * a bare Fastify "hello" route, also through `inject`, in the same process. The two are
 * interleaved round by round so machine noise hits both alike; the ratio of medians is the
 * number to compare between machines.
 */
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { listProjectRowsJson } from '../apps/server/src/modules/projects/projects.service.js';
import { api, createTestContext, login, testDialect } from '../apps/server/test/helpers.js';
import { buildUser } from '../apps/server/test/factories.js';
import type { Database } from '../apps/server/src/db/database.js';
import { isMain, median } from './measure.js';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const MEMBERS = 25;
const BATCH = 500;
const ROUNDS = 7;
const PER_ROUND = 15;
const WARMUP = 5;

const cities = [
  'Munich, Germany',
  'Hamburg, Germany',
  'Vienna, Austria',
  'Zurich, Switzerland',
  'Milan, Italy',
  'Lyon, France',
  'Rotterdam, Netherlands',
  'Copenhagen, Denmark',
  'Warsaw, Poland',
  'Porto, Portugal',
  'Austin, TX, United States',
  'Toronto, Canada',
];
const kinds = [
  'Office tower',
  'School extension',
  'Bridge repair',
  'Warehouse',
  'Housing block',
  'Hospital wing',
  'Metro station',
  'Parking garage',
];

/**
 * `count` projects by batched inserts (500 rows each), one an hour back from now, named and
 * placed from a few lists, created in turn by `creatorIds`. Also used by bench/all-projects.ts.
 */
export async function seedProjects(
  db: Database,
  count: number,
  creatorIds: number[],
): Promise<void> {
  const start = Date.now();
  for (let offset = 0; offset < count; offset += BATCH) {
    const rows = [];
    for (let i = offset; i < Math.min(offset + BATCH, count); i += 1) {
      const at = new Date(start - i * 3_600_000).toISOString();
      const creatorId = creatorIds[i % creatorIds.length];
      if (creatorId === undefined) throw new Error('seedProjects: no creators');
      rows.push({
        name: `${kinds[i % kinds.length]} ${i + 1}`,
        location: cities[i % cities.length] ?? 'Munich, Germany',
        latitude: null,
        longitude: null,
        description: i % 3 === 0 ? `Phase ${(i % 5) + 1} of the works, documented weekly.` : '',
        creator_id: creatorId,
        uploads_count: (i * 7) % 120,
        archived_at: null,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto('projects').values(rows).execute();
  }
}

const ms = (value: number) => `${value.toFixed(3)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function main(): Promise<void> {
  const ctx = await createTestContext();
  const baseline = Fastify({ logger: false });
  baseline.get('/hello', async () => ({ hello: 'world' }));
  await baseline.ready();

  try {
    const members = [];
    for (let i = 0; i < MEMBERS; i += 1) members.push(await buildUser(ctx));
    const viewer = members[0];
    if (!viewer) throw new Error('no members');
    const token = await login(ctx, viewer);

    const seedStart = performance.now();
    await seedProjects(
      ctx.db,
      PROJECTS,
      members.map((member) => member.id),
    );
    const seedMs = performance.now() - seedStart;

    const list = () => api(ctx, { method: 'GET', url: '/api/project/all/list', token });
    const hello = () => baseline.inject({ method: 'GET', url: '/hello' });

    const check = await list();
    if (check.statusCode !== 200) throw new Error(`list failed: ${check.statusCode} ${check.body}`);
    const rows = check.json<unknown[]>();
    if (rows.length !== PROJECTS) throw new Error(`expected ${PROJECTS} rows, got ${rows.length}`);
    const payload = check.rawPayload.byteLength;
    const gzipped = gzipSync(check.rawPayload).byteLength;

    for (let i = 0; i < WARMUP; i += 1) {
      await list();
      await hello();
    }

    const time = async (call: () => Promise<unknown>) => {
      const t0 = performance.now();
      await call();
      return performance.now() - t0;
    };

    const listTimes: number[] = [];
    const helloTimes: number[] = [];
    const serviceTimes: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const roundList: number[] = [];
      const roundHello: number[] = [];
      for (let i = 0; i < PER_ROUND; i += 1) {
        roundHello.push(await time(hello));
        roundList.push(await time(list));
      }
      serviceTimes.push(await time(() => listProjectRowsJson(ctx)));
      listTimes.push(...roundList);
      helloTimes.push(...roundHello);
      ratios.push(median(roundList) / median(roundHello));
    }

    console.log(
      `GET /api/project/all/list at ${PROJECTS.toLocaleString('en')} projects (${testDialect}, ${process.version})`,
    );
    console.log(`  seeded in            ${ms(seedMs)} (${BATCH} rows per insert)`);
    console.log(
      `  rounds               ${ROUNDS} × ${PER_ROUND} calls each, interleaved with the baseline`,
    );
    console.log(
      `  list median          ${ms(median(listTimes))}  (min ${ms(Math.min(...listTimes))}, max ${ms(Math.max(...listTimes))})`,
    );
    console.log(
      `  query + mapping      ${ms(median(serviceTimes))}  (the service alone, no HTTP; the rest is auth + JSON serialization)`,
    );
    console.log(
      `  baseline median      ${ms(median(helloTimes))}  (bare Fastify hello via inject)`,
    );
    console.log(
      `  median ratio         ${median(ratios).toFixed(0)}× the baseline (per-round ratios: ${ratios.map((r) => r.toFixed(0)).join(', ')})`,
    );
    console.log(
      `  payload              ${kib(payload)} JSON (${(payload / PROJECTS).toFixed(1)} bytes per row), ${kib(gzipped)} gzipped`,
    );
  } finally {
    await baseline.close();
    await ctx.close();
  }
}

if (isMain(import.meta.url)) await main();
