/**
 * Per-request cost through real HTTP (issue 11): the app started as its own process, loaded by
 * autocannon in another process, against a bare Fastify hello started the same way.
 *
 *   npx tsx bench/http.ts [--quick]
 *
 * - The app: `node --import tsx apps/server/src/main.ts` with NODE_ENV=production, a fresh
 *   temporary DATA_DIR (SQLite, local media), SAMPLE_DATA=off and LOG_LEVEL unset (the default,
 *   info: the access log is part of the cost). Its stdout goes to a file in the temp dir.
 *   Before it starts, the data dir is seeded through the app's own services (the test factories:
 *   accounts, projects, and 80 uploads through the real upload pipeline, tiny JPEGs), then
 *   copies of those upload rows up to 1,000: full pages for every feed measured.
 * - The baseline: bench/hello-server.ts, a bare Fastify hello with a response schema.
 * - The load: bench/load-worker.ts (autocannon), 10 connections, in its own process.
 * - Pinning: with 2+ cores and `taskset`, the app and the hello on CPU 0, the load on CPU 1.
 * - Rounds: after a short warm-up of every call, each round runs the hello and then each call
 *   followed by the hello again; a call's value is its median req/s over the rounds, its ratio the
 *   median of its per-round ratios to the mean of the hello runs just before and after it.
 * - Full run only: the latest feed's p99 at a fixed rate (a paced sender, not autocannon), this
 *   app (1,000 uploads) against a second one on 1,000,000.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { createDatabase, migrateToLatest, type Database } from '../apps/server/src/db/database.js';
import { createImageProcessor } from '../apps/server/src/media/image-processor.js';
import { createStorage } from '../apps/server/src/media/storage/index.js';
import {
  buildProject,
  buildUpload,
  buildUser,
  DEFAULT_PASSWORD,
} from '../apps/server/test/factories.js';
import type { LoadJob, LoadResult } from './load-worker.js';
import { isMain, median } from './measure.js';
import {
  atLeast,
  atMost,
  formatTable,
  measured,
  notMeasured,
  reqPerSec,
  times,
  type Row,
  type Target,
} from './table.js';
import { COMPRESS_MIN_BYTES } from '../apps/server/src/http/compression.js';

const root = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = 10;
/** Uploads in the measured project; the feeds below need full pages (50 and 48). */
const PROJECT_UPLOADS = 60;
const OTHER_UPLOADS = 20;
/** Uploads in the app of the main rounds: the seeded ones and copies of their rows. */
const APP_UPLOADS = 1_000;
/** The page size of the web's project feed (apps/web/src/features/uploads/api/feed-pages.ts). */
const FEED_PAGE_SIZE = 48;

export interface HttpOptions {
  rounds: number;
  /** Seconds per call per round, and of each hello run between them. */
  seconds: number;
  helloSeconds: number;
  warmupSeconds: number;
  /**
   * The latest feed's p99 at a fixed request rate, the app of the main rounds (APP_UPLOADS)
   * against a second app whose database holds `uploads`; null leaves it out.
   */
  p99: { uploads: number; rate: number; seconds: number } | null;
  /** Only the calls whose measure contains this text (for a quick look at one call). */
  only?: string;
  /** Writes the app's CPU profile (node --cpu-prof) into this directory when it stops. */
  cpuProfDir?: string;
}

export const fullHttp: HttpOptions = {
  rounds: 5,
  seconds: 4,
  helloSeconds: 2,
  warmupSeconds: 1,
  // A p99 of 200 req/s × 8 s is the 16th-slowest of 1,600 answers; at 4 s it was the 8th of
  // 800, which a single stall of the shared machine decides.
  p99: { uploads: 1_000_000, rate: 200, seconds: 8 },
};
export const quickHttp: HttpOptions = {
  rounds: 2,
  seconds: 1,
  // As long as a call's run: a shorter hello run measured a higher rate (health against a 0.75 s
  // hello: 0.32–0.63× in 11 runs, against a 1 s hello: 0.52–0.77× in 3, the code unchanged).
  helloSeconds: 1,
  warmupSeconds: 0.5,
  p99: null,
};

/** Where the server and the load run: `taskset -c N` prefixes, or none on one core. */
export interface Pinning {
  server: string[];
  load: string[];
  note: string;
}

export function pinning(): Pinning {
  const cores = availableParallelism();
  const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
  if (cores >= 2 && hasTaskset)
    return {
      server: ['taskset', '-c', '0'],
      load: ['taskset', '-c', '1'],
      note:
        `${cores} cores: app and hello pinned to CPU 0 (once started), load (autocannon) to ` +
        'CPU 1',
    };
  return {
    server: [],
    load: [],
    note:
      cores < 2
        ? '1 core: NOT pinned, app and load share the core (ratios understate the app)'
        : `${cores} cores but no taskset (util-linux): NOT pinned`,
  };
}

interface Seeded {
  email: string;
  password: string;
  userId: number;
  projectId: number;
}

/**
 * Accounts, projects and uploads written through the app's services into `dataDir`, before the
 * app starts on it (the same database and signing secret); then, up to `uploads`, copies of
 * those upload rows (same stored files, older dates), with the stored counts brought up to date.
 */
async function seed(dataDir: string, uploads: number): Promise<Seeded> {
  const config = seedConfig(dataDir);
  const db = createDatabase(config.database);
  const storage = createStorage(config);
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
  });
  try {
    await migrateToLatest(db);
    const ctx = { db, storage, images, config };
    const user = await buildUser(ctx, { isAdmin: true, firstname: 'Bench', lastname: 'Admin' });
    const colleague = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: user.id, name: 'Bench project' });
    const other = await buildProject(ctx, { creatorId: colleague.id });
    for (let i = 0; i < PROJECT_UPLOADS; i++)
      await buildUpload(ctx, {
        projectId: project.id,
        creatorId: i % 3 ? user.id : colleague.id,
        name: `Photo ${i + 1}`,
        description: 'Slab poured and covered for curing; test cubes taken.',
      });
    for (let i = 0; i < OTHER_UPLOADS; i++)
      await buildUpload(ctx, { projectId: other.id, creatorId: colleague.id });
    await copyUploads(db, PROJECT_UPLOADS + OTHER_UPLOADS, uploads);
    return {
      email: user.email,
      password: DEFAULT_PASSWORD,
      userId: user.id,
      projectId: project.id,
    };
  } finally {
    await images.close();
    await storage.close();
    await db.destroy();
  }
}

/**
 * Fills the uploads table to `total` rows with copies of the `seeded` rows before them, dated a
 * day and more before them, a minute apart. Rows only: building a million uploads through the
 * pipeline would take hours; what a feed reads of a row is the same either way.
 */
async function copyUploads(db: Database, seeded: number, total: number): Promise<void> {
  const copies = total - seeded;
  if (copies <= 0) return;
  const columns = sql.raw(
    'project_id, creator_id, description, preview_key, formatted_key, original_key, ' +
      'original_type, original_bytes, formatted_width, formatted_height, preview_width, ' +
      'preview_height, captured_at, latitude, longitude, camera',
  );
  const at = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (1440 + n.i) || ' minutes')`;
  // SQLite (the app's default database, which this bench runs on).
  await sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${copies})
    insert into uploads (name, created_at, updated_at, ${columns})
    select 'Earlier photo ' || n.i, ${at}, ${at}, ${columns}
    from n join uploads on uploads.id = 1 + (n.i % ${seeded})`.execute(db);
  await sql`update projects set uploads_count =
    (select count(*) from uploads where uploads.project_id = projects.id)`.execute(db);
  await sql`update users set uploads_count =
    (select count(*) from uploads where uploads.creator_id = users.id)`.execute(db);
}

/** The app's configuration for `dataDir` as the benches seed it, before the app starts on it. */
export function seedConfig(dataDir: string) {
  return loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SAMPLE_DATA: 'off',
    LOG_LEVEL: 'silent',
  });
}

/** Signs a seeded account in on a running app (the factories' password) and answers its token. */
export async function benchToken(origin: string, email: string): Promise<string> {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: { email, password: DEFAULT_PASSWORD } }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  return ((await login.json()) as { token: string }).token;
}

export interface Server {
  port: number;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts `args` with stdout and stderr to `logFile`, and waits until every pattern has appeared
 * in it; the first match group of the first pattern is the port. A pinning prefix
 * (`taskset -c N`) is applied once the server is ready, to all its threads: its start (the
 * app's imports and gazetteer, seconds of CPU with nothing measured yet) may use both cores.
 */
export async function startServer(
  prefix: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  patterns: RegExp[],
): Promise<Server> {
  const fd = openSync(logFile, 'a');
  const pinAfterStart = prefix[0] === 'taskset' && prefix[1] === '-c' ? prefix[2] : undefined;
  const command = [...(pinAfterStart ? [] : prefix), process.execPath, ...args];
  const child = spawn(command[0] ?? process.execPath, command.slice(1), {
    cwd: root,
    env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = () => child.exitCode ?? child.signalCode;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const log = readFileSync(logFile, 'utf8');
    const port = patterns[0]?.exec(log)?.[1];
    if (port && patterns.every((pattern) => pattern.test(log))) {
      if (pinAfterStart && child.pid !== undefined) {
        const pinned = spawnSync('taskset', ['-a', '-p', '-c', pinAfterStart, String(child.pid)]);
        if (pinned.status !== 0) {
          child.kill('SIGKILL');
          throw new Error(`taskset could not pin ${args.join(' ')}: ${String(pinned.stderr)}`);
        }
      }
      return {
        port: Number(port),
        process: child,
        stop: () =>
          new Promise<void>((resolve) => {
            if (exited() !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    const exit = exited();
    if (exit !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `${args.join(' ')} did not start (${exit === null ? 'timed out' : `exit ${exit}`}):\n` +
          log.split('\n').slice(-20).join('\n'),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The load generator: one long-lived process, pinned, taking one job at a time over IPC. */
export function startLoadWorker(prefix: string[]) {
  const command = [...prefix, process.execPath, '--import', 'tsx', 'bench/load-worker.ts'];
  const child = spawn(command[0] ?? process.execPath, command.slice(1), {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    run: (job: LoadJob) =>
      new Promise<LoadResult>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`load worker exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (message) => {
          child.off('exit', onExit);
          resolve(message as LoadResult);
        });
        child.send(job);
      }),
    stop: () => {
      if (child.connected) child.disconnect();
      child.kill('SIGTERM');
    },
  };
}

interface Call {
  measure: string;
  /** One path, or the paths a page fetches (each connection cycles through them). */
  paths: string[];
  headers: Record<string, string>;
  target?: Target;
  /**
   * The same call hand-written (bench/reference-server.ts): its paths there. Where even that
   * stays below a third of the target on this machine, the row's FAIL line is a third of what
   * the hand-written server reaches instead (`verdict` in bench/table.ts).
   */
  reference?: string[];
}

/** Checks each call answers 200 with what the row claims to measure, before any load. */
async function checkCalls(base: string, calls: Call[], token: string): Promise<void> {
  for (const call of calls) {
    for (const callPath of call.paths) {
      const res = await fetch(`${base}${callPath}`, {
        headers: { ...call.headers, authorization: `Bearer ${token}` },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${callPath}: ${res.status} ${body.slice(0, 300)}`);
      const encoding = call.headers['accept-encoding'] ? res.headers.get('content-encoding') : null;
      const size = /(?:latest\/|limit=)(\d+)$/.exec(callPath)?.[1];
      // fetch decodes br/gzip itself; the header says whether the server compressed. The server
      // compresses only large answers (COMPRESS_MIN_BYTES); smaller ones go out as they are.
      if (call.headers['accept-encoding'] && !encoding && body.length >= COMPRESS_MIN_BYTES)
        throw new Error(`${callPath}: not compressed although the client accepts br, gzip`);
      if (size && (JSON.parse(body) as unknown[]).length !== Number(size))
        throw new Error(`${callPath}: fewer than ${size} uploads; the seed is too small`);
    }
  }
}

export interface HttpResult {
  rows: Row[];
  notes: string[];
}

/**
 * The app (`apps/server/src/main.ts`) as its own process on `dataDir`, production mode, no
 * sample workspace, a free port on loopback, the default log level; started once it listens
 * (and every pattern of `waitFor` has appeared in its log). `extraEnv` adds to its environment
 * (e.g. `DATABASE_URL` for a PostgreSQL database).
 */
export function startAppProcess(
  prefix: string[],
  dataDir: string,
  logFile: string,
  nodeArgs: string[] = [],
  waitFor: RegExp[] = [],
  extraEnv: Record<string, string> = {},
): Promise<Server> {
  // Only what the app needs: no LOG_LEVEL, DATABASE_URL or TEST_* from the caller's shell
  // unless the caller names them in `extraEnv`.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SAMPLE_DATA: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    ...extraEnv,
  };
  return startServer(
    prefix,
    [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'],
    env,
    logFile,
    [/Server listening at http:\/\/127\.0\.0\.1:(\d+)/, ...waitFor],
  );
}

interface RunningApp {
  server: Server;
  base: string;
  token: string;
  seeded: Seeded;
}

/** Seeds `dataDir` with `uploads`, starts the app on it and signs in as the seeded admin. */
async function startApp(
  pins: Pinning,
  dataDir: string,
  uploads: number,
  logFile: string,
  cpuProfDir?: string,
): Promise<RunningApp> {
  const seeded = await seed(dataDir, uploads);
  const profiling = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [];
  // The gazetteer loads on CPU 0 right after listen; measuring before it is done would charge
  // its seconds of CPU to the first calls.
  const server = await startAppProcess(pins.server, dataDir, logFile, profiling, [
    /place search (ready|could not)/,
  ]);
  const base = `http://127.0.0.1:${server.port}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: { email: seeded.email, password: seeded.password } }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return { server, base, token, seeded };
}

export async function measureHttp(
  options: HttpOptions,
  progress: (line: string) => void = () => {},
): Promise<HttpResult> {
  const pins = pinning();
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-http-'));
  const servers: Server[] = [];
  let load: ReturnType<typeof startLoadWorker> | null = null;
  try {
    progress(`seeding ${APP_UPLOADS.toLocaleString('en-US')} uploads and starting the app…`);
    const main = await startApp(
      pins,
      path.join(dir, 'data'),
      APP_UPLOADS,
      path.join(dir, 'app.log'),
      options.cpuProfDir,
    );
    servers.push(main.server);
    let large: RunningApp | null = null;
    if (options.p99) {
      progress(
        `seeding ${options.p99.uploads.toLocaleString('en-US')} uploads and starting a second app…`,
      );
      large = await startApp(
        pins,
        path.join(dir, 'data-large'),
        options.p99.uploads,
        path.join(dir, 'app-large.log'),
      );
      servers.push(large.server);
    }
    const hello = await startServer(
      pins.server,
      ['--import', 'tsx', 'bench/hello-server.ts'],
      { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: '0' },
      path.join(dir, 'hello.log'),
      [/listening (\d+)/],
    );
    servers.push(hello);
    const reference = await startServer(
      pins.server,
      ['--import', 'tsx', 'bench/reference-server.ts'],
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        PORT: '0',
        REFERENCE_DB: path.join(dir, 'data', 'sitelog.db'),
      },
      path.join(dir, 'reference.log'),
      [/listening (\d+)/],
    );
    servers.push(reference);

    const plain: Record<string, string> = {};
    const compressed = { 'accept-encoding': 'br, gzip' };
    const { projectId, userId } = main.seeded;
    const calls: Call[] = [
      { measure: 'GET /api/health', paths: ['/api/health'], headers: plain, target: atLeast(0.7) },
      {
        measure: 'GET /api/user/profile/{id}',
        paths: [`/api/user/profile/${userId}`],
        headers: plain,
      },
      {
        measure: 'GET /api/project/id/{id}',
        paths: [`/api/project/id/${projectId}`],
        headers: plain,
      },
      {
        measure: 'GET /api/upload/latest/18',
        paths: ['/api/upload/latest/18'],
        headers: plain,
        target: atLeast(0.3),
        reference: ['/latest/18'],
      },
      {
        measure: 'GET /api/upload/latest/18, Accept-Encoding: br, gzip',
        paths: ['/api/upload/latest/18'],
        headers: compressed,
        target: atLeast(0.3),
        reference: ['/latest/18'],
      },
      {
        measure: 'GET /api/upload/latest/50',
        paths: ['/api/upload/latest/50'],
        headers: plain,
        target: atLeast(0.15),
        reference: ['/latest/50'],
      },
      {
        // The calls the project page makes (useProject + useProjectUploads' first page), one of
        // each per page load, as a browser sends them.
        measure: `project page: /api/project/id/{id} + /api/upload/project/{id}/latest?limit=${FEED_PAGE_SIZE}, br, gzip (calls/s)`,
        paths: [
          `/api/project/id/${projectId}`,
          `/api/upload/project/${projectId}/latest?limit=${FEED_PAGE_SIZE}`,
        ],
        headers: compressed,
        target: atLeast(0.3),
        reference: [
          `/project/${projectId}`,
          `/project/${projectId}/uploads?limit=${FEED_PAGE_SIZE}`,
        ],
      },
    ];
    if (options.only) {
      const only = options.only;
      calls.splice(0, calls.length, ...calls.filter((call) => call.measure.includes(only)));
    }
    await checkCalls(main.base, calls, main.token);
    await checkCalls(
      `http://127.0.0.1:${reference.port}`,
      calls.flatMap((call) => (call.reference ? [{ ...call, paths: call.reference }] : [])),
      '',
    );

    load = startLoadWorker(pins.load);
    const worker = load;
    const runHello = (seconds: number) =>
      worker.run({
        url: `http://127.0.0.1:${hello.port}/hello`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: {},
      });
    const runCall = (call: Call, seconds: number, app = main, overallRate?: number) =>
      worker.run({
        url: `${app.base}${call.paths[0]}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { ...call.headers, authorization: `Bearer ${app.token}` },
        ...(call.paths.length > 1 ? { paths: call.paths } : {}),
        ...(overallRate ? { overallRate } : {}),
      });
    const runReference = (call: Call, paths: string[], seconds: number) =>
      worker.run({
        url: `http://127.0.0.1:${reference.port}${paths[0]}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: call.headers,
        ...(paths.length > 1 ? { paths } : {}),
      });
    const checked = (what: string, result: LoadResult) => {
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(
          `${what}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
        );
      return result;
    };

    progress('warming up…');
    checked('hello', await runHello(options.warmupSeconds));
    for (const call of calls) {
      checked(call.measure, await runCall(call, options.warmupSeconds));
      if (call.reference)
        checked(
          `${call.measure}, hand-written`,
          await runReference(call, call.reference, options.warmupSeconds),
        );
    }

    // Each call runs between two hello runs and is compared with their mean: the machine's
    // load drifts within seconds, and a hello measured once per round would misjudge the calls
    // run far from it.
    // A call with a hand-written reference runs it right after itself, before the next hello.
    const helloRates: number[] = [];
    const perCall = () => calls.map(() => [] as number[]);
    const [rates, ratios, referenceRates, referenceRatios, ofReference] = [
      perCall(),
      perCall(),
      perCall(),
      perCall(),
      perCall(),
    ];
    for (let round = 0; round < options.rounds; round++) {
      let before = checked('hello', await runHello(options.helloSeconds)).reqPerSec;
      helloRates.push(before);
      for (const [i, call] of calls.entries()) {
        const rate = checked(call.measure, await runCall(call, options.seconds)).reqPerSec;
        const referenceRate = call.reference
          ? checked(
              `${call.measure}, hand-written`,
              await runReference(call, call.reference, options.seconds),
            ).reqPerSec
          : null;
        const after = checked('hello', await runHello(options.helloSeconds)).reqPerSec;
        helloRates.push(after);
        const hello = (before + after) / 2;
        rates[i]?.push(rate);
        ratios[i]?.push(rate / hello);
        if (referenceRate !== null) {
          referenceRates[i]?.push(referenceRate);
          referenceRatios[i]?.push(referenceRate / hello);
          ofReference[i]?.push(rate / referenceRate);
        }
        before = after;
      }
      progress(`round ${round + 1}/${options.rounds} done`);
    }

    const helloMedian = median(helloRates);
    const rows: Row[] = [
      measured(
        'bare Fastify hello (baseline)',
        { value: reqPerSec(helloMedian), ratio: times(1) },
        1,
      ),
      ...calls.flatMap((call, i) => {
        const ratio = median(ratios[i] ?? []);
        const referenceRatio = call.reference ? median(referenceRatios[i] ?? []) : undefined;
        const row = measured(
          call.measure,
          {
            value: reqPerSec(median(rates[i] ?? [])),
            baseline: `hello ${reqPerSec(helloMedian)}`,
            ratio: times(ratio),
          },
          ratio,
          call.target,
          referenceRatio,
        );
        if (referenceRatio === undefined) return [row];
        return [
          row,
          measured(
            '↳ the same, hand-written (Fastify + better-sqlite3, bench/reference-server.ts)',
            {
              value: `${reqPerSec(median(referenceRates[i] ?? []))}, app ${times(median(ofReference[i] ?? []))} of it`,
              baseline: `hello ${reqPerSec(helloMedian)}`,
              ratio: times(referenceRatio),
            },
            referenceRatio,
          ),
        ];
      }),
    ];
    if (options.p99 && large) {
      const { rate, uploads, seconds } = options.p99;
      const feed: Call = {
        measure: 'latest feed',
        paths: ['/api/upload/latest/18'],
        headers: plain,
      };
      await checkCalls(large.base, [feed], large.token);
      progress(`latest feed p99 at ${rate} req/s…`);
      checked('latest feed, large', await runCall(feed, options.warmupSeconds, large, rate));
      const small: LoadResult[] = [];
      const big: LoadResult[] = [];
      const p99Ratios: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        // Alternating which goes first, so a drift of the machine's load favours neither.
        const order = round % 2 ? [large, main] : [main, large];
        const results = new Map<RunningApp, LoadResult>();
        for (const app of order)
          results.set(app, checked('latest feed', await runCall(feed, seconds, app, rate)));
        const [one, other] = [results.get(main), results.get(large)];
        if (!one || !other) throw new Error('a p99 run is missing');
        small.push(one);
        big.push(other);
        p99Ratios.push(other.p99 / one.p99);
      }
      const ratio = median(p99Ratios);
      const latencies = (runs: LoadResult[]) =>
        `p99 ${median(runs.map((r) => r.p99)).toFixed(2)} ms (p50 ${median(runs.map((r) => r.p50)).toFixed(2)})`;
      rows.push(
        measured(
          `GET /api/upload/latest/18 p99 at ${rate} req/s, ${uploads.toLocaleString('en-US')} uploads`,
          {
            value: latencies(big),
            baseline: `${APP_UPLOADS.toLocaleString('en-US')} uploads: ${latencies(small)}`,
            ratio: times(ratio),
          },
          ratio,
          atMost(1.2),
        ),
      );
    } else {
      rows.push(
        notMeasured(
          'GET /api/upload/latest/18 p99 at a fixed rate, 1,000,000 vs 1,000 uploads',
          '≤ 1.20×',
          'full run only',
        ),
      );
    }

    const notes = [
      pins.note,
      `autocannon, ${CONNECTIONS} connections, ${options.rounds} rounds; in each, every call runs ` +
        `${options.seconds} s between two ${options.helloSeconds} s runs of the hello; value = median ` +
        'req/s, ratio = median of the per-round ratios to the mean of the two hellos around it',
      `app: NODE_ENV=production, SQLite, local media, LOG_LEVEL default (info), stdout to a file; ` +
        `${APP_UPLOADS.toLocaleString('en-US')} uploads (${PROJECT_UPLOADS + OTHER_UPLOADS} through ` +
        'the upload pipeline, the rest copies of their rows)',
      'the feed rows also run hand-written (bench/reference-server.ts: Fastify + better-sqlite3, the ' +
        "same queries on the app's database, no sign-in, signing, logging or hooks) right after the " +
        "app's run; where that stays below a third of a target, the row FAILs only below a third " +
        'of what the hand-written server reaches (bench/table.ts)',
    ];
    return { rows, notes };
  } finally {
    load?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const value = (name: string) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const only = value('only');
  const cpuProfDir = value('cpu-prof');
  const result = await measureHttp(
    {
      ...(quick ? quickHttp : fullHttp),
      ...(only ? { only } : {}),
      ...(cpuProfDir ? { cpuProfDir: path.resolve(cpuProfDir) } : {}),
    },
    (line) => console.error(line),
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log(formatTable(result.rows));
}
