// The real server (main.ts) as its own process: what it refuses and says at start, and how it
// stops. SIGTERM drains (health says so), then the server stops accepting connections, finishes
// the requests in flight (an upload still sending its body) and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Upload } from '@sitelog/shared';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.js';
import { SECRET_MISMATCH } from '../src/modules/workspace/workspace.service.js';
import { buildProject, buildUser, DEFAULT_PASSWORD } from './factories.js';
import {
  createTestContext,
  createTestTarget,
  testDialect,
  type TestContext,
  type TestTarget,
} from './helpers.js';
import { photoJpeg } from './images.js';
import { dtoPart, filePart, multipartBody } from './uploads.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const mainFile = path.join(repoRoot, 'apps/server/src/main.ts');

/** Each test starts the server once or twice; a start takes seconds on a busy machine. */
const TEST_TIMEOUT_MS = 180_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

interface LogLine {
  level: number;
  msg: string;
  pid?: number;
}

interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output: () => string;
  /** The JSON log lines written so far. */
  logs: () => LogLine[];
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Starts `main.ts` as its own Node process (tsx as a loader, so signals reach the server itself)
 * on `target`, with `env` on top of a quiet test environment.
 */
async function spawnServer(
  target: Pick<TestTarget, 'dataDir' | 'databaseUrl'>,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: target.dataDir,
      SAMPLE_DATA: 'off',
      LOG_LEVEL: 'info',
      ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const logs = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => output, logs, exited };
}

/** Waits until the server answers its health check 200 (or fails with its output). */
async function ready(server: ServerProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited at start:\n${server.output()}`);
    try {
      if ((await fetch(`${server.base}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server did not answer:\n${server.output()}`);
    await sleep(100);
  }
}

async function stopServer(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  return server.exited;
}

/** A GET on a connection of its own (no keep-alive pool): what a balancer's probe does. */
function freshGet(port: number, urlPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits for a log line whose message starts with `msg`. */
async function logged(server: ServerProcess, msg: string): Promise<LogLine> {
  let found: LogLine | undefined;
  await expect
    .poll(
      () => {
        found = server.logs().find((line) => line.msg.startsWith(msg));
        return found !== undefined;
      },
      { timeout: 30_000, message: `no log line "${msg}"` },
    )
    .toBe(true);
  return found!;
}

async function signIn(server: ServerProcess, email: string): Promise<string> {
  const res = await fetch(`${server.base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: { email, password: DEFAULT_PASSWORD } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/**
 * An upload sent slowly on a connection of its own: the headers (with `Expect: 100-continue`,
 * so `started` resolves once the server has the request in hand), then the body in parts as the
 * test says.
 */
function slowUpload(server: ServerProcess, token: string, payload: Buffer, headers: object) {
  const req: ClientRequest = httpRequest({
    host: '127.0.0.1',
    port: server.port,
    method: 'POST',
    path: '/api/upload/autoupload',
    agent: false,
    headers: {
      ...headers,
      authorization: `Bearer ${token}`,
      'content-length': String(payload.length),
      expect: '100-continue',
    },
  });
  const started = once(req, 'continue');
  const answer = new Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
    },
  );
  answer.catch(() => undefined);
  req.flushHeaders();
  return { req, started, answer };
}

describe(`starting (${testDialect})`, () => {
  it(
    'refuses a database that is not migrated to this version when MIGRATE_ON_START=off',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const target = await createTestTarget();
      cleanups.push(target.remove);
      const server = await spawnServer(target, { MIGRATE_ON_START: 'off' });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(
        'The database is not migrated to this version (missing: 2026-11-22-01-users-sessions, ' +
          '2026-11-22-02-projects-uploads, 2026-11-22-03-upload-media-key-indexes, ' +
          '2026-11-23-01-login-limits, 2026-11-23-02-upload-client-ids and 8 more). Run ' +
          '`npm run db:migrate` with this configuration, then start again (or set ' +
          'MIGRATE_ON_START=on to migrate at start).',
      );
      // Nothing was migrated behind the operator's back.
      const db = createDatabase(
        target.databaseUrl
          ? { kind: 'postgres', url: target.databaseUrl }
          : { kind: 'sqlite', file: path.join(target.dataDir, 'sitelog.db') },
      );
      try {
        const tables = await db.introspection.getTables();
        expect(tables.map((t) => t.name)).toEqual([]);
      } finally {
        await db.destroy();
      }
    },
  );

  it(
    'starts with a warning on a database a newer version migrated (a rolling deploy)',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const ctx = await createTestContext();
      cleanups.push(() => ctx.close());
      await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-01-from-a-newer-version', ${new Date().toISOString()})`.execute(
        ctx.db,
      );
      const target = {
        dataDir: ctx.dataDir,
        ...(ctx.config.database.kind === 'postgres'
          ? { databaseUrl: ctx.config.database.url }
          : {}),
      };
      for (const migrateOnStart of ['off', 'on']) {
        const server = await spawnServer(target, { MIGRATE_ON_START: migrateOnStart });
        await ready(server);
        const warning = await logged(
          server,
          'The database has migrations this version does not know',
        );
        expect(warning).toMatchObject({
          level: 40,
          msg:
            'The database has migrations this version does not know ' +
            '(2099-01-01-01-from-a-newer-version): a newer version migrated it. Starting anyway, ' +
            'as during a rolling deploy; update this instance to the newer version.',
        });
        expect(await stopServer(server)).toBe(0);
      }
    },
  );

  it(
    'says when SECRET differs from the one another instance of the database uses, and when it was generated where others cannot see it',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const ctx = await createTestContext();
      cleanups.push(() => ctx.close());
      const target = {
        dataDir: ctx.dataDir,
        ...(ctx.config.database.kind === 'postgres'
          ? { databaseUrl: ctx.config.database.url }
          : {}),
      };
      // No SECRET: generated into DATA_DIR, which only PostgreSQL (or a bucket) makes a problem.
      const first = await spawnServer(target);
      await ready(first);
      expect(await stopServer(first)).toBe(0);
      const generated = first
        .logs()
        .filter((line) => line.msg.startsWith('SECRET is not set'))
        .map((line) => line.level);
      expect(generated).toEqual(testDialect === 'postgres' ? [40] : []);
      expect(first.logs().filter((line) => line.msg === SECRET_MISMATCH)).toEqual([]);

      // Another instance of the same database (its own DATA_DIR), with a SECRET of its own.
      const second = await spawnServer(
        { ...target, dataDir: `${ctx.dataDir}/second` },
        {
          SECRET: 'another-secret-of-at-least-32-characters',
          ...(ctx.config.database.kind === 'sqlite'
            ? { DATABASE_URL: `sqlite:${ctx.config.database.file}` }
            : {}),
        },
      );
      await ready(second);
      expect(await logged(second, SECRET_MISMATCH)).toMatchObject({ level: 50 });
      expect(second.logs().some((line) => line.msg.startsWith('SECRET is not set'))).toBe(false);
      expect(await stopServer(second)).toBe(0);
    },
  );
});

describe(`stopping (${testDialect})`, () => {
  let ctx: TestContext;

  async function uploadSetup() {
    ctx = await createTestContext();
    cleanups.push(() => ctx.close());
    const member = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: member.id });
    const name = `drained-${Date.now()}`;
    const body = multipartBody([
      dtoPart({ name, description: '', projectId: project.id }),
      filePart(await photoJpeg(1024, 768)),
    ]);
    const target = {
      dataDir: ctx.dataDir,
      ...(ctx.config.database.kind === 'postgres' ? { databaseUrl: ctx.config.database.url } : {}),
    };
    return { member, name, body, target };
  }

  it(
    'drains on SIGTERM: health says draining, new connections are refused, the upload in flight completes, exit 0',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { member, name, body, target } = await uploadSetup();
      const server = await spawnServer(target, { DRAIN_DELAY_SECONDS: '2' });
      await ready(server);
      const token = await signIn(server, member.email);

      // An upload sent slowly: the server has the request, a third of the body so far.
      const upload = slowUpload(server, token, body.payload, body.headers);
      await upload.started;
      const third = Math.floor(body.payload.length / 3);
      upload.req.write(body.payload.subarray(0, third));

      server.child.kill('SIGTERM');
      expect(await logged(server, 'draining')).toMatchObject({ level: 30, pid: server.child.pid });
      // During the drain delay a balancer's probe on a new connection hears "draining".
      const probe = await freshGet(server.port, '/api/health');
      expect(probe.status).toBe(503);
      expect(JSON.parse(probe.body)).toMatchObject({
        code: 'draining',
        message:
          'This instance is shutting down; the load balancer should send requests to another one.',
      });

      // Then the server stops accepting connections, while the upload is still arriving.
      await logged(server, 'shutting down');
      await expect
        .poll(
          () =>
            freshGet(server.port, '/api/health').then(
              () => 'accepted',
              (err: NodeJS.ErrnoException) => err.code,
            ),
          { timeout: 10_000 },
        )
        .toBe('ECONNREFUSED');
      expect(server.child.exitCode).toBeNull();

      // The rest of the body, in parts with pauses: the upload ends with its normal answer.
      for (let at = third; at < body.payload.length; at += 16 * 1024) {
        upload.req.write(body.payload.subarray(at, Math.min(at + 16 * 1024, body.payload.length)));
        await sleep(20);
      }
      upload.req.end();
      const answer = await upload.answer;
      expect(answer.status, answer.body).toBe(200);
      expect(answer.headers.connection).toBe('close');
      const uploaded = JSON.parse(answer.body) as Upload;
      expect(uploaded.name).toBe(name);

      expect(await server.exited).toBe(0);
      expect(server.logs().filter((line) => line.level >= 50)).toEqual([]);
      // It is stored, whole: the row and its three files.
      const row = await ctx.db
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', uploaded.id)
        .executeTakeFirstOrThrow();
      expect(row.name).toBe(name);
      for (const key of [row.original_key, row.formatted_key, row.preview_key])
        expect(await ctx.storage.get(key), key).not.toBeNull();
      expect((await ctx.storage.get(row.original_key))?.length).toBe(Number(row.original_bytes));
    },
  );

  it(
    'gives up after SHUTDOWN_TIMEOUT_SECONDS on a request that does not finish: logged, exit 1',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const { member, body, target } = await uploadSetup();
      const server = await spawnServer(target, { SHUTDOWN_TIMEOUT_SECONDS: '1' });
      await ready(server);
      const token = await signIn(server, member.email);
      const upload = slowUpload(server, token, body.payload, body.headers);
      await upload.started;
      upload.req.write(body.payload.subarray(0, 1000));
      server.child.kill('SIGTERM');
      // The body never comes; the process does not wait for it beyond the timeout.
      expect(await server.exited).toBe(1);
      expect(
        server.logs().find((line) => line.msg.startsWith('shutdown took longer than')),
      ).toMatchObject({
        level: 50,
        msg: 'shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS (1 s): exiting with requests still in flight',
      });
      upload.req.destroy();
    },
  );
});
