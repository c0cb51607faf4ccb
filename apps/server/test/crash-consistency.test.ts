// Crash consistency suite (issue 10, suites §4): the real server runs as its own process, several
// clients upload (and delete) photos over HTTP, and the process is SIGKILLed at a random moment of
// the burst, then started again on the same data. Every upload a client saw acknowledged must be
// there with all its media, no row may lack a media object, the counters must equal the rows, and
// one sweep must leave no orphaned object or temp file.
//
// `npm test` runs CRASH_RUNS=3 per database; `npm run test:soak` runs 20. A failing run prints its
// seed: CRASH_SEED=<seed> replays the same kill moment and client mix.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { positiveIntFromEnv } from './env.js';
import { sweepOnce } from '../src/media/sweeper.js';
import { findReferencedMediaKeys } from '../src/modules/uploads/uploads.repository.js';
import { buildProject, buildUser, DEFAULT_PASSWORD } from './factories.js';
import { createTestContext, testDialect, type TestContext } from './helpers.js';
import { photoJpeg } from './images.js';
import { dtoPart, filePart, multipartBody, storedKeys, tempFiles } from './uploads.js';

const RUNS = positiveIntFromEnv('CRASH_RUNS', 3);
const CLIENTS = 4;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const mainFile = path.join(repoRoot, 'apps/server/src/main.ts');

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** Every server process a test started and that has not exited. */
const children = new Set<ChildProcess>();

interface RunningServer {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/**
 * Starts `apps/server/src/main.ts` as its own Node process (tsx as a loader, not as a wrapper
 * process, so SIGKILL reaches the server itself) on the context's data dir and database.
 */
async function startServer(ctx: TestContext): Promise<RunningServer> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: ctx.dataDir,
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'warn',
  };
  if (ctx.config.database.kind === 'postgres') env.DATABASE_URL = ctx.config.database.url;
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Known at once, so a test that times out while the server starts still kills it.
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited at start:\n${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 60 s:\n${output}`);
    }
    await sleep(100);
  }
  return { child, base, output: () => output };
}

async function stop(server: RunningServer, signal: NodeJS.Signals): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    return server.child.exitCode;
  const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  server.child.kill(signal);
  const [code] = await exited;
  return code;
}

type State = 'sent' | 'refused' | 'acked' | 'deleting' | 'deleted';
interface Tracked {
  name: string;
  id: number | null;
  state: State;
}

let ctx: TestContext | null = null;
let running: RunningServer | null = null;

afterEach(async () => {
  if (running) await stop(running, 'SIGKILL');
  running = null;
  for (const child of children) child.kill('SIGKILL');
  await ctx?.close();
  ctx = null;
});

const baseSeed = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : Date.now() % 1e9;

describe(`crash consistency (${testDialect})`, () => {
  for (let run = 1; run <= RUNS; run++) {
    const seed = baseSeed + run - 1;
    it(`run ${run}/${RUNS}: a SIGKILL mid-burst loses no acknowledged upload (seed ${seed})`, async () => {
      const random = seeded(seed);
      ctx = await createTestContext();
      const member = await buildUser(ctx);
      const project = await buildProject(ctx, { creatorId: member.id });
      // Sizes vary, so the kill lands in different steps: reading the body, decoding, writing
      // the renditions, the transaction.
      const photos = await Promise.all(
        [
          [320, 240],
          [1024, 768],
          [1600, 1200],
        ].map(([w, h]) => photoJpeg(w!, h!)),
      );

      running = await startServer(ctx);
      const server = running;
      const login = await fetch(`${server.base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: { email: member.email, password: DEFAULT_PASSWORD } }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const auth = { authorization: `Bearer ${token}` };

      const tracked: Tracked[] = [];
      let acks = 0;
      let killed = false;

      // A client uploads until the server goes away; after every third acknowledged upload it
      // deletes its oldest live one, so deletes are cut off by the kill too.
      const client = async (index: number) => {
        const mine: Tracked[] = [];
        for (let k = 1; !killed; k++) {
          const entry: Tracked = { name: `s${seed}-c${index}-u${k}`, id: null, state: 'sent' };
          tracked.push(entry);
          mine.push(entry);
          const body = multipartBody([
            filePart(photos[Math.floor(random() * photos.length)]!),
            dtoPart({ name: entry.name, description: '', projectId: project.id }),
          ]);
          let res: { status: number; text: string };
          try {
            const answer = await fetch(`${server.base}/api/upload/autoupload`, {
              method: 'POST',
              headers: { ...auth, ...body.headers },
              body: new Uint8Array(body.payload),
            });
            res = { status: answer.status, text: await answer.text() };
          } catch {
            return; // the server died with this request in flight: its outcome is unknown
          }
          if (res.status === 503) {
            entry.state = 'refused'; // the image queue was full: nothing was stored
            continue;
          }
          // Any other answer than a success is a failure of the run, not a crash.
          expect(res.status, res.text).toBe(200);
          entry.id = (JSON.parse(res.text) as Upload).id;
          entry.state = 'acked';
          acks += 1;
          if (k % 3 === 0) {
            const target = mine.find((t) => t.state === 'acked');
            if (!target) continue;
            target.state = 'deleting';
            let status: number;
            let text: string;
            try {
              const answer = await fetch(`${server.base}/api/upload/delete/${target.id}`, {
                method: 'DELETE',
                headers: auth,
              });
              status = answer.status;
              text = await answer.text();
            } catch {
              return;
            }
            expect(status, text).toBe(200);
            target.state = 'deleted';
          }
        }
      };

      const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
      // Some uploads are acknowledged first, then the kill comes at a random moment.
      const warmUntil = Date.now() + 30_000;
      while (acks < 3 && Date.now() < warmUntil) await sleep(10);
      expect(acks, `no upload was acknowledged:\n${server.output()}`).toBeGreaterThanOrEqual(3);
      await sleep(Math.floor(random() * 1200));
      killed = true;
      const killedAt = acks;
      await stop(server, 'SIGKILL');
      await Promise.all(clients);

      // Started again on the same data, it must serve every acknowledged upload.
      running = await startServer(ctx);
      const restarted = running;
      const rows = await ctx.db.selectFrom('uploads').selectAll().execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      const mustExist = tracked.filter((t) => t.state === 'acked');
      const mustBeGone = tracked.filter((t) => t.state === 'deleted');
      const lost = mustExist.filter((t) => !byId.has(t.id!)).map((t) => t.name);
      expect(lost, `seed ${seed}: acknowledged uploads lost`).toEqual([]);
      expect(mustBeGone.filter((t) => byId.has(t.id!)).map((t) => t.name)).toEqual([]);
      // Only names the clients sent, each at most once (a row whose answer was cut off is fine).
      const sent = new Set(tracked.map((t) => t.name));
      expect(rows.filter((r) => !sent.has(r.name)).map((r) => r.name)).toEqual([]);
      expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);

      // Every row has all its media, whole.
      for (const row of rows) {
        const original = await ctx.storage.get(row.original_key);
        expect(original?.length, `row ${row.id} original`).toBe(Number(row.original_bytes));
        for (const key of [row.preview_key, row.formatted_key]) {
          const bytes = await ctx.storage.get(key);
          expect(bytes, `row ${row.id}: ${key}`).not.toBeNull();
          const meta = await sharp(bytes!).metadata();
          expect(meta.width, key).toBeGreaterThan(0);
        }
      }
      // The counters equal the rows.
      const projectRow = await ctx.db
        .selectFrom('projects')
        .select('uploads_count')
        .where('id', '=', project.id)
        .executeTakeFirstOrThrow();
      expect(Number(projectRow.uploads_count)).toBe(rows.length);
      const userRow = await ctx.db
        .selectFrom('users')
        .select('uploads_count')
        .where('id', '=', member.id)
        .executeTakeFirstOrThrow();
      expect(Number(userRow.uploads_count)).toBe(rows.length);

      // The restarted server serves them (a new session, as the crashed one's token still works
      // too: sessions live in the database).
      for (const t of mustExist.slice(-5)) {
        const res = await fetch(`${restarted.base}/api/upload/full/${t.id}`, { headers: auth });
        expect(res.status).toBe(200);
        const upload = (await res.json()) as Upload;
        const image = await fetch(new URL(upload.previewLink, restarted.base));
        expect(image.status).toBe(200);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      expect(await stop(restarted, 'SIGTERM')).toBe(0);
      running = null;

      // One sweep removes whatever the kill left half done: no orphan, no temp file.
      const referenced = rows.flatMap((r) => [r.preview_key, r.formatted_key, r.original_key]);
      const before = await storedKeys(ctx);
      const swept = await sweepOnce(
        {
          storage: ctx.storage,
          config: ctx.config,
          findReferencedKeys: (keys) => findReferencedMediaKeys(ctx!.db, keys),
        },
        { orphanMinAgeMs: 0, tempMaxAgeMs: 0 },
      );
      expect(await storedKeys(ctx)).toEqual([...referenced].sort());
      expect(tempFiles(ctx)).toEqual([]);

      const names = new Set(rows.map((r) => r.name));
      const unknown = tracked.filter((t) => t.state === 'sent' || t.state === 'deleting');
      console.log(
        `crash run ${run} (${testDialect}, seed ${seed}): killed after ${killedAt} acks, ` +
          `${mustExist.length} acknowledged kept (0 lost), ${mustBeGone.length} deletes, ` +
          `${unknown.length} cut off (${unknown.filter((t) => names.has(t.name)).length} committed), ` +
          `${rows.length} rows, ${before.length - referenced.length} leftover objects and ` +
          `${swept.tempFilesRemoved} temp files swept (${swept.orphansRemoved} orphans)`,
      );
    }, 180_000);
  }
});
