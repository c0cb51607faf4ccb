// The sweeper wired as main.ts wires it: the uploads repository tells which stored keys are live.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.js';
import { createTestContext, testDialect, type TestContext } from '../../../test/helpers.js';
import { nowIso } from '../../db/database.js';
import { startLeaderLock } from '../../db/leader-lock.js';
import { findReferencedMediaKeys } from './uploads.repository.js';
import { newUploadKeys, type UploadKeys } from '../../media/media-types.js';
import { createLocalStorage, type Storage } from '../../media/storage/index.js';
import { startSweeper, sweepOnce } from '../../media/sweeper.js';

const HOUR = 3600_000;
let ctx: TestContext;
let storage: Storage;
let mediaDir: string;
let creatorId: number;
let projectId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  mediaDir = path.join(ctx.dataDir, 'sweeper-media');
  storage = createLocalStorage(mediaDir);
  creatorId = (await buildUser(ctx)).id;
  const now = nowIso();
  const project = await ctx.db
    .insertInto('projects')
    .values({
      name: 'Sweep site',
      location: 'Berlin',
      description: '',
      creator_id: creatorId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  projectId = project.id;
});
afterAll(() => ctx.close());

const allOf = (keys: UploadKeys) => [keys.preview, keys.formatted, keys.original];
const keysFor = () =>
  newUploadKeys({ original: 'image/jpeg', formatted: 'image/jpeg', preview: 'image/webp' });

/** Writes an upload's three files and backdates them. */
async function storeFiles(keys: UploadKeys, ageMs: number) {
  for (const key of allOf(keys)) {
    await storage.put(key, Buffer.from(key), 'image/jpeg');
    const when = new Date(Date.now() - ageMs);
    utimesSync(path.join(mediaDir, ...key.split('/')), when, when);
  }
}

async function insertUploadRow(keys: UploadKeys) {
  const now = nowIso();
  await ctx.db
    .insertInto('uploads')
    .values({
      project_id: projectId,
      creator_id: creatorId,
      name: 'photo',
      description: '',
      created_at: now,
      updated_at: now,
      preview_key: keys.preview,
      formatted_key: keys.formatted,
      original_key: keys.original,
      original_type: 'image/jpeg',
      original_bytes: 10,
      formatted_width: 10,
      formatted_height: 10,
      preview_width: 10,
      preview_height: 10,
      captured_at: null,
      latitude: null,
      longitude: null,
      camera: null,
    })
    .execute();
}

/** The sweeper wired as main.ts wires it: the uploads repository says which keys are in use. */
const sweeperDeps = () => ({
  storage,
  config: ctx.config,
  findReferencedKeys: (keys: string[]) => findReferencedMediaKeys(ctx.db, keys),
});

const exists = async (key: string) => (await storage.get(key)) !== null;

describe('media sweeper', () => {
  it('removes old unreferenced objects and keeps referenced and recent ones', async () => {
    const kept = keysFor();
    await storeFiles(kept, 3 * HOUR);
    await insertUploadRow(kept);
    const orphan = keysFor();
    await storeFiles(orphan, 3 * HOUR);
    const inFlight = keysFor(); // written a moment ago, row not inserted yet
    await storeFiles(inFlight, 60_000);

    const result = await sweepOnce(sweeperDeps(), { batchSize: 2 });

    expect(result.orphansRemoved).toBe(3);
    for (const key of allOf(kept)) expect(await exists(key)).toBe(true);
    for (const key of allOf(orphan)) expect(await exists(key)).toBe(false);
    for (const key of allOf(inFlight)) expect(await exists(key)).toBe(true);
  });

  it('removes stale temp upload files and keeps fresh ones', async () => {
    const tempDir = ctx.config.uploads.tempDir;
    mkdirSync(tempDir, { recursive: true });
    const stale = path.join(tempDir, 'stale.upload');
    const fresh = path.join(tempDir, 'fresh.upload');
    writeFileSync(stale, 'x');
    writeFileSync(fresh, 'y');
    const old = new Date(Date.now() - 2 * HOUR);
    utimesSync(stale, old, old);

    const result = await sweepOnce(sweeperDeps());

    expect(result.tempFilesRemoved).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('sweeps away the leftovers of an interrupted local write', async () => {
    const keys = keysFor();
    await storeFiles(keys, 3 * HOUR);
    await insertUploadRow(keys);
    const leftover = path.join(
      mediaDir,
      ...keys.preview.split('/').slice(0, -1),
      '.preview.webp.0123456789ab.tmp',
    );
    writeFileSync(leftover, 'partial');
    const old = new Date(Date.now() - 3 * HOUR);
    utimesSync(leftover, old, old);

    await sweepOnce(sweeperDeps());

    expect(existsSync(leftover)).toBe(false);
    expect(await exists(keys.preview)).toBe(true);
  });

  it('runs periodically once started, and stops', async () => {
    const orphan = keysFor();
    await storeFiles(orphan, 3 * HOUR);
    const swept: object[] = [];
    const stop = startSweeper(
      {
        ...sweeperDeps(),
        log: {
          info: (obj) => swept.push(obj),
          warn: (obj) => swept.push(obj),
          error: (obj) => swept.push(obj),
        },
      },
      { initialDelayMs: 10, intervalMs: 20 },
    );
    await expect.poll(() => exists(orphan.original), { timeout: 5_000 }).toBe(false);
    await stop();
    expect(swept).toContainEqual({ tempFilesRemoved: 0, orphansRemoved: 3 });

    const after = keysFor();
    await storeFiles(after, 3 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await exists(after.original)).toBe(true);
  });
});

describe('the sweeper leader', () => {
  /** A stale file in `dir`, as an abandoned upload leaves it. */
  function staleTempFile(dir: string, name: string): string {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    writeFileSync(file, 'x');
    const old = new Date(Date.now() - 2 * HOUR);
    utimesSync(file, old, old);
    return file;
  }

  it('a follower sweeps its own temp folder only, never the shared storage', async () => {
    const orphan = keysFor();
    await storeFiles(orphan, 3 * HOUR);
    const stale = staleTempFile(ctx.config.uploads.tempDir, 'follower.upload');
    let asked = 0;
    const stop = startSweeper(
      {
        ...sweeperDeps(),
        findReferencedKeys: (keys) => {
          asked += 1;
          return findReferencedMediaKeys(ctx.db, keys);
        },
      },
      { initialDelayMs: 10, intervalMs: 20, leader: { isLeader: () => false } },
    );
    try {
      await expect.poll(() => existsSync(stale), { timeout: 5_000 }).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await stop();
    }
    expect(asked).toBe(0);
    expect(await exists(orphan.original)).toBe(true);
    await sweepOnce(sweeperDeps());
  });

  // Two instances of one PostgreSQL database, each with its own temp folder, one storage.
  if (testDialect === 'postgres')
    it('on PostgreSQL only the instance holding the lock sweeps the storage', async () => {
      if (ctx.config.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const orphan = keysFor();
      await storeFiles(orphan, 3 * HOUR);
      const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const instances = ['a', 'b'].map((name) => {
        const tempDir = path.join(ctx.dataDir, `tmp-${name}`);
        const lock = startLeaderLock(ctx.config.database, {
          role: 'sweeper',
          retryMs: 50,
          log: quiet,
        });
        const sweeps: boolean[] = [];
        const stop = startSweeper(
          {
            storage,
            config: { uploads: { ...ctx.config.uploads, tempDir } },
            log: quiet,
            // Asked only when the storage is swept: record whether this instance led then.
            findReferencedKeys: (keys) => {
              sweeps.push(lock.isLeader());
              return findReferencedMediaKeys(ctx.db, keys);
            },
          },
          { initialDelayMs: 10, intervalMs: 30, leader: lock },
        );
        return { lock, stop, sweeps, stale: staleTempFile(tempDir, `${name}.upload`) };
      });
      try {
        await expect.poll(() => exists(orphan.original), { timeout: 10_000 }).toBe(false);
        // Each instance keeps its own temp folder clean, leader or not.
        await expect
          .poll(() => instances.map((i) => existsSync(i.stale)), { timeout: 5_000 })
          .toEqual([false, false]);
        await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        for (const i of instances) await i.stop();
        for (const i of instances) await i.lock.stop();
      }
      // Every storage sweep ran on the leader of the moment, and only one instance ever led.
      const swept = instances.filter((i) => i.sweeps.length > 0);
      expect(swept).toHaveLength(1);
      expect(swept[0]!.sweeps.every(Boolean)).toBe(true);
    });
});
