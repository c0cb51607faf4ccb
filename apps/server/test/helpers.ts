import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp, type AppDeps } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createDatabase, migrateToLatest, type Database } from '../src/db/database.js';
import {
  createImageProcessor,
  type ImageProcessor,
  type ImageProcessorOptions,
} from '../src/media/image-processor.js';
import { createMediaLinks } from '../src/media/links.js';
import { createStorage, type Storage } from '../src/media/storage/index.js';
import { buildUser, type TestUser, type UserOverrides } from './factories.js';

/** Which database the server suite runs on: SQLite unless TEST_DB=postgres. */
export const testDialect: 'sqlite' | 'postgres' =
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: Config;
  storage: Storage;
  images: ImageProcessor;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * A new, empty PostgreSQL database on `base`'s server (TEST_DATABASE_URL's unless given), named
 * `prefix` and random hex, and how to drop it. The benches make theirs with it too.
 */
export async function createFreshPostgres(
  base = process.env.TEST_DATABASE_URL,
  prefix = 'sitelog_t_',
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        // The app's pool has just been ended, but its backends may take a moment to go; forcing
        // the drop at once kills them mid-goodbye and their clients report it as an unhandled
        // error. Wait for them a little, and force only as a last resort.
        for (let attempt = 1; ; attempt += 1) {
          try {
            await c.query(`drop database if exists ${name}`);
            break;
          } catch (err) {
            const inUse = (err as { code?: unknown }).code === '55006';
            if (!inUse || attempt >= 40) {
              await c.query(`drop database if exists ${name} with (force)`);
              break;
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
      } finally {
        await c.end();
      }
    },
  };
}

/** Where a test app keeps its data: a data dir and, on PostgreSQL, its own database. */
export interface TestTarget {
  dataDir: string;
  /** Set on PostgreSQL. */
  databaseUrl?: string;
  /** Drops the database and removes the data dir. */
  remove: () => Promise<void>;
}

/** A fresh, empty data dir (and a fresh PostgreSQL database when the suite runs on one). */
export async function createTestTarget(): Promise<TestTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-test-'));
  const fresh = testDialect === 'postgres' ? await createFreshPostgres() : null;
  return {
    dataDir,
    ...(fresh ? { databaseUrl: fresh.url } : {}),
    remove: async () => {
      if (fresh) await fresh.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The env the app (or a CLI) reads to run on `target`, plus `env`. */
export function targetEnv(
  target: Pick<TestTarget, 'dataDir' | 'databaseUrl'>,
  env: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: target.dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SAMPLE_DATA: 'off',
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...env,
  };
}

/**
 * A fresh app on a fresh database (a new SQLite file, or a new PostgreSQL database) and a fresh
 * data dir, with the media storage the env names (local disk under the data dir by default;
 * `STORAGE: 's3'` + `S3_*`, e.g. from `startS3Server()`, for a bucket). Each test file builds its
 * own; nothing is shared between files. `options.images` sets the image processor's queue or
 * wraps its image library (tests of the busy queue); `options.prepareDataDir` runs on the empty
 * data dir before anything is made in it (e.g. to put the media folder on another file system).
 */
export async function createTestContext(
  env: Record<string, string> = {},
  options: {
    images?: Pick<ImageProcessorOptions, 'maxQueue' | 'adapter'>;
    prepareDataDir?: (dataDir: string) => void;
    logDestination?: DestinationStream;
  } = {},
): Promise<TestContext> {
  const target = await createTestTarget();
  options.prepareDataDir?.(target.dataDir);
  return openTestContext(target, env, options);
}

/**
 * An app on `target` as it is (migrated to the latest schema first), e.g. a restored backup.
 * Closing the context removes the target.
 */
export async function openTestContext(
  target: TestTarget,
  env: Record<string, string> = {},
  options: {
    images?: Pick<ImageProcessorOptions, 'maxQueue' | 'adapter'>;
    logDestination?: DestinationStream;
  } = {},
): Promise<TestContext> {
  const config = loadConfig(targetEnv(target, env));
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const storage = createStorage(config);
  const links = createMediaLinks({ config, storage });
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
    heicDecoder: config.uploads.heicDecoder,
    tempDir: config.uploads.tempDir,
    ...options.images,
  });
  const app = await buildApp({
    config,
    db,
    links,
    storage,
    images,
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    config,
    storage,
    images,
    dataDir: target.dataDir,
    close: async () => {
      await app.close();
      await images.close();
      await storage.close();
      await db.destroy();
      await target.remove();
    },
  };
}

/**
 * A second app on the context's config, storage and images but another database (e.g. one that
 * cannot be reached), and any other dependency `deps` gives (e.g. a readiness to drain). The
 * caller closes both.
 */
export async function buildAppWithDatabase(
  ctx: TestContext,
  db: Database,
  deps: Partial<AppDeps> = {},
): Promise<FastifyInstance> {
  const links = createMediaLinks({ config: ctx.config, storage: ctx.storage });
  const app = await buildApp({
    config: ctx.config,
    db,
    links,
    storage: ctx.storage,
    images: ctx.images,
    ...deps,
  });
  await app.ready();
  return app;
}

/** Signs in through the API and returns the bearer token. */
export async function login(
  ctx: Pick<TestContext, 'app'>,
  user: Pick<TestUser, 'email' | 'password'>,
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { login: { email: user.email, password: user.password } },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { token: string }).token;
}

/** Creates a user and signs them in. */
export async function signedInUser(
  ctx: Pick<TestContext, 'app' | 'db'>,
  overrides: UserOverrides = {},
): Promise<TestUser & { token: string }> {
  const user = await buildUser(ctx, overrides);
  return { ...user, token: await login(ctx, user) };
}

/** `app.inject` with an optional bearer token. */
export function api(
  ctx: Pick<TestContext, 'app'>,
  options: InjectOptions & { token?: string },
): Promise<LightMyRequestResponse> {
  const { token, headers, ...rest } = options;
  return ctx.app.inject({
    ...rest,
    headers: { ...(headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}
