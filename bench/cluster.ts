/**
 * Several instances behind nginx (issue 17): throughput of the home feed and of photo uploads
 * through nginx with 1, 2 and 3 instances, each as a ratio to 1 instance in the same run, and
 * what nginx itself costs (the home feed direct to one instance against through nginx).
 *
 *   npx tsx bench/cluster.ts [--no-pin] [--rounds=N] [--seconds=S] [--connections=N]
 *                            [--upload-rounds=N] [--in-flight=N]
 *
 * One cluster (cluster/harness.ts): 3 instances of apps/server/src/main.ts (NODE_ENV=production,
 * LOG_LEVEL default info: one access-log line per request, as in every HTTP bench), one fresh
 * PostgreSQL database on the machine's server (BENCH_DATABASE_URL, TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/postgres), one s3rver bucket, and Debian's nginx with the
 * repo's deploy/nginx.conf, its own access log off. The data is seeded once through the app's
 * services and used by every configuration. The number of instances behind nginx changes as an
 * operator changes it: sitelog-upstreams.conf rewritten with the first N instances, then a reload
 * (SIGHUP); nothing restarts.
 *
 * Placement on 2 cores (taskset; `--no-pin` leaves everything to the kernel):
 * - instance a on CPU 0, b on CPU 1, c on CPU 0 (instance i on CPU i mod cores);
 * - the load generator (bench/load-worker.ts) on the last CPU (1), and this process too while it
 *   runs (it reads the instances' logs through the harness's pipes);
 * - nginx on the load's CPU for the scaling rows (one instance then has a core to itself), on
 *   the app's CPU 0 for the nginx row (its cost comes out of the instance's core);
 * - PostgreSQL (the machine's server, shared with other work) and s3rver are not pinned.
 * Each run records the CPU time of every part (instances, nginx, load, PostgreSQL's backends on
 * this database, s3rver, this process) and of the machine, printed as notes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { createDatabase, type Database } from '../apps/server/src/db/database.js';
import { createImageProcessor } from '../apps/server/src/media/image-processor.js';
import { createStorage } from '../apps/server/src/media/storage/index.js';
import { buildProject, buildUpload, buildUser } from '../apps/server/test/factories.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { startCluster, type Cluster } from '../cluster/harness.js';
import { freshDatabase, type ClusterDatabase } from '../cluster/postgres.js';
import { waitFor } from '../cluster/processes.js';
import { benchToken, startLoadWorker } from './http.js';
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
} from './table.js';
import { uploadForm } from './uploads.js';

const INSTANCES = 3;
const FEED_PATH = '/api/upload/latest/18';
/** Photos seeded through the upload pipeline (small JPEGs): a full home feed and more. */
const SEEDED_UPLOADS = 40;
const NGINX_WORKERS = 1;
/** The issue's nginx target: direct / through nginx. */
const NGINX_TARGET = 1.15;
/**
 * "Near-linear up to the core count": N instances at least 0.9 × N of one, checked where the
 * machine has a core for each instance and one more (the load generator, nginx, PostgreSQL);
 * on fewer cores (this 2-core machine) the scaling rows report what the cores allow.
 */
const NEAR_LINEAR = 0.9;

export interface ClusterBenchOptions {
  /** Feed rounds; each runs every configuration once for `seconds`. */
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** Feed: autocannon connections to nginx (or to the instance, direct). */
  connections: number;
  /** Upload rounds; each runs every instance count once with a batch of `uploadBatch`. */
  uploadRounds: number;
  uploadBatch: number;
  uploadsInFlight: number;
  /** taskset placement (default); false leaves every process to the kernel. */
  pin: boolean;
}

export const fullCluster: ClusterBenchOptions = {
  rounds: 5,
  seconds: 4,
  warmupSeconds: 1,
  connections: 10,
  uploadRounds: 3,
  uploadBatch: 18,
  uploadsInFlight: 6,
  pin: true,
};

export interface ClusterBenchResult {
  rows: Row[];
  notes: string[];
}

/* ---------- CPU accounting from /proc ---------- */

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's user + system CPU seconds (all its threads), or null once it is gone. */
function cpuOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the rest follows its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** PostgreSQL's backends serving `database` (their title names it). */
function postgresBackends(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = commandLine(Number(entry));
    if (line.startsWith('postgres: ') && line.includes(` ${database} `)) pids.push(Number(entry));
  }
  return pids;
}

/** Busy and total jiffies of each CPU (/proc/stat), to tell how busy the machine was. */
function cpuTimes(): { busy: number; total: number }[] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const values = line.trim().split(/\s+/).slice(1).map(Number);
      const total = values.reduce((sum, v) => sum + v, 0);
      const idle = (values[3] ?? 0) + (values[4] ?? 0);
      return { busy: total - idle, total };
    });
}

type Part = 'a' | 'b' | 'c' | 'nginx' | 'load' | 'postgres' | 's3rver' | 'bench';
type Usage = Partial<Record<Part, number>> & {
  machine: number[];
  /** Each instance's share of the run's requests. */
  shares?: number[];
};

/** Cores each part used during `run` (CPU seconds / wall seconds), and each CPU's busy share. */
async function usage<T>(
  parts: () => Record<Part, number[]>,
  run: () => Promise<T>,
): Promise<{ result: T; usage: Usage }> {
  const before = parts();
  const cpuBefore = new Map<number, number>();
  for (const pids of Object.values(before))
    for (const pid of pids) cpuBefore.set(pid, cpuOf(pid) ?? 0);
  const machineBefore = cpuTimes();
  const start = performance.now();
  const result = await run();
  const seconds = (performance.now() - start) / 1000;
  const machineAfter = cpuTimes();
  const after = parts();
  const used: Usage = {
    machine: machineAfter.map((cpu, i) => {
      const was = machineBefore[i] ?? { busy: 0, total: 0 };
      return (cpu.busy - was.busy) / Math.max(1, cpu.total - was.total);
    }),
  };
  for (const part of Object.keys(after) as Part[]) {
    const pids = new Set([...(before[part] ?? []), ...after[part]]);
    let sum = 0;
    // A process that ended during the run is not counted (its last CPU time is gone with it);
    // one that began during it counts from 0.
    for (const pid of pids) {
      const now = cpuOf(pid);
      if (now !== null) sum += now - (cpuBefore.get(pid) ?? 0);
    }
    used[part] = sum / seconds;
  }
  return { result, usage: used };
}

/* ---------- pinning ---------- */

interface Placement {
  pinned: boolean;
  /** CPU of instance i. */
  instance: (i: number) => number | null;
  app: number | null;
  load: number | null;
  note: string;
}

function placement(pin: boolean): Placement {
  const cores = availableParallelism();
  const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
  if (pin && cores >= 2 && hasTaskset) {
    const load = cores - 1;
    return {
      pinned: true,
      instance: (i) => i % cores,
      app: 0,
      load,
      note:
        `${cores} cores, taskset: instance i on CPU i mod ${cores} (a, c on 0; b on 1); load ` +
        `generator and this bench process on CPU ${load}; nginx on CPU ${load} for the scaling ` +
        'rows and on CPU 0 (with instance a) for the nginx row; PostgreSQL and s3rver not pinned',
    };
  }
  return {
    pinned: false,
    instance: () => null,
    app: null,
    load: null,
    note: !pin
      ? 'NOT pinned (--no-pin): the kernel places every process'
      : cores < 2
        ? '1 core: NOT pinned'
        : `${cores} cores but no taskset (util-linux): NOT pinned`,
  };
}

/** Pins every thread of each process to `cpu` (taskset -a -p); null leaves them as they are. */
function pinTo(pids: number[], cpu: number | null): void {
  if (cpu === null) return;
  for (const pid of pids) {
    const out = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], {
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`taskset ${pid} → CPU ${cpu}: ${out.stderr}`);
  }
}

/** The affinity mask of `pid` (hex, as taskset prints it), to put back afterwards. */
function affinityMask(pid: number): string | null {
  const out = spawnSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
  return /mask:\s*([0-9a-f]+)/i.exec(out.stdout)?.[1] ?? null;
}

/* ---------- nginx: which instances it balances ---------- */

interface Nginx {
  master: number;
  workers(): number[];
  /** Rewrites sitelog-upstreams.conf with the first `count` instances and reloads nginx. */
  balance(count: number): Promise<void>;
  place(cpu: number | null): void;
}

function nginxOf(cluster: Cluster): Nginx {
  const confDir = path.join(cluster.dir, 'nginx');
  const master = Number(readFileSync(path.join(confDir, 'nginx.pid'), 'utf8').trim());
  const upstreamsFile = path.join(confDir, 'sitelog-upstreams.conf');
  // The harness's lines, one per instance in order: the bench keeps the first N.
  const lines = readFileSync(upstreamsFile, 'utf8').split('\n').filter(Boolean);
  if (lines.length !== cluster.instances.length)
    throw new Error(`sitelog-upstreams.conf has ${lines.length} lines, not one per instance`);
  let current = lines.length;
  const workers = () => childrenOf(master);
  return {
    master,
    workers,
    async balance(count) {
      if (count === current) return;
      writeFileSync(upstreamsFile, lines.slice(0, count).join('\n') + '\n');
      const old = workers();
      process.kill(master, 'SIGHUP');
      // The reload is done when the old workers have gone and new ones run the new file.
      await waitFor(
        `nginx to reload with ${count} instance(s)`,
        () => {
          const now = workers();
          return now.length >= NGINX_WORKERS && now.every((pid) => !old.includes(pid));
        },
        15_000,
        20,
      );
      current = count;
    },
    place(cpu) {
      pinTo([master, ...workers()], cpu);
    },
  };
}

/* ---------- seeding ---------- */

/**
 * One account, one project and SEEDED_UPLOADS photos through the app's services (the upload
 * pipeline into the cluster's bucket and database), before any measurement; every configuration
 * reads the same rows.
 */
async function seed(cluster: Cluster, dir: string) {
  const config = loadConfig({ ...cluster.env, DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const db: Database = createDatabase(config.database);
  const storage = createStorage(config);
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
  });
  try {
    const ctx = { db, storage, images, config };
    const user = await buildUser(ctx, { isAdmin: true, firstname: 'Bench', lastname: 'Admin' });
    const colleague = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: user.id, name: 'Bench project' });
    for (let i = 0; i < SEEDED_UPLOADS; i++)
      await buildUpload(ctx, {
        projectId: project.id,
        creatorId: i % 3 ? user.id : colleague.id,
        name: `Photo ${i + 1}`,
        description: 'Slab poured and covered for curing; test cubes taken.',
      });
    return { email: user.email, projectId: project.id };
  } finally {
    await images.close();
    await storage.close();
    await db.destroy();
  }
}

/* ---------- the bench ---------- */

/** Why the bench cannot run here, or null. */
async function missing(databaseServer: string): Promise<string | null> {
  if (!['/usr/sbin/nginx', '/usr/bin/nginx'].some((file) => spawnSync(file, ['-v']).status === 0))
    return 'no nginx (apt install nginx)';
  try {
    const client = new pg.Client({ connectionString: databaseServer });
    await client.connect();
    await client.end();
  } catch {
    return `no PostgreSQL at ${databaseServer.replace(/\/\/[^@]*@/, '//')}`;
  }
  return null;
}

const scalingMeasure = (what: string, n: number) =>
  `${what} through nginx, ${n} instance${n > 1 ? 's' : ''}`;

export async function measureCluster(
  options: ClusterBenchOptions,
  progress: (line: string) => void = () => {},
): Promise<ClusterBenchResult> {
  const databaseServer =
    process.env.BENCH_DATABASE_URL ||
    process.env.TEST_DATABASE_URL ||
    'postgres://postgres@127.0.0.1:5432/postgres';
  const why = await missing(databaseServer);
  if (why)
    return {
      rows: [
        notMeasured('home feed and uploads through nginx, 1–3 instances', '', why),
        notMeasured('nginx: home feed direct / through nginx', `≤ ${NGINX_TARGET}×`, why),
      ],
      notes: [],
    };

  const place = placement(options.pin);
  const cores = availableParallelism();
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-cluster-'));
  let database: ClusterDatabase | null = null;
  let cluster: Cluster | null = null;
  let load: ReturnType<typeof startLoadWorker> | null = null;
  const ownMask = place.pinned ? affinityMask(process.pid) : null;
  try {
    progress(`cluster: starting ${INSTANCES} instances behind nginx…`);
    const started = performance.now();
    database = await freshDatabase(databaseServer);
    cluster = await startCluster({
      instances: INSTANCES,
      databaseUrl: database.url,
      accessLog: false,
      nginxWorkers: NGINX_WORKERS,
      production: true,
    });
    const { instances, url: nginxUrl } = cluster;
    // The gazetteer loads for seconds of CPU right after listen: measuring before it is done
    // would charge it to the first configuration.
    await waitFor(
      'every instance to load its gazetteer',
      () => instances.every((i) => /place search (ready|could not)/.test(i.output())),
      120_000,
      200,
    );
    const startSeconds = (performance.now() - started) / 1000;
    progress(`cluster: up in ${startSeconds.toFixed(0)} s; seeding ${SEEDED_UPLOADS} photos…`);
    const seeded = await seed(cluster, path.join(dir, 'seed'));

    const nginx = nginxOf(cluster);
    const pids = instances.map((instance) => {
      if (instance.pid === undefined) throw new Error(`instance ${instance.name} has no pid`);
      return instance.pid;
    });
    pids.forEach((pid, i) => pinTo([pid], place.instance(i)));
    // From here on this process (which reads the instances' logs) runs on the load's core; the
    // processes it starts later (the load worker) would inherit it anyway.
    pinTo([process.pid], place.load);
    load = startLoadWorker(place.load === null ? [] : ['taskset', '-c', String(place.load)]);
    const worker = load;
    const databaseName = new URL(database.url).pathname.slice(1);
    const s3rver = childrenOf(process.pid).filter((pid) => commandLine(pid).includes('s3rver'));
    const loadPids = () =>
      childrenOf(process.pid).filter((pid) => commandLine(pid).includes('load-worker'));
    const parts = (): Record<Part, number[]> => ({
      a: [pids[0] ?? 0],
      b: [pids[1] ?? 0],
      c: [pids[2] ?? 0],
      nginx: [nginx.master, ...nginx.workers()],
      load: loadPids(),
      postgres: postgresBackends(databaseName),
      s3rver,
      bench: [process.pid],
    });

    const token = await benchToken(cluster.url, seeded.email);
    const auth = { authorization: `Bearer ${token}` };
    for (const origin of [cluster.url, instances[0]?.url ?? '']) {
      const res = await fetch(`${origin}${FEED_PATH}`, { headers: auth });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${origin}${FEED_PATH}: ${res.status} ${body}`);
      if ((JSON.parse(body) as unknown[]).length !== 18)
        throw new Error(`${origin}${FEED_PATH}: fewer than 18 uploads`);
    }

    const checked = (what: string, result: LoadResult) => {
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(
          `${what}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`,
        );
      return result;
    };
    /** Requests each instance answered since `from` (its access-log lines), and the new ends. */
    const logEnds = () => instances.map((instance) => instance.output().length);
    const servedSince = (from: number[]) =>
      instances.map((instance, i) => {
        const text = instance.output().slice(from[i] ?? 0);
        return text.split('"request completed"').length - 1;
      });
    /** Waits until no instance's log has grown for 200 ms (the last run's lines are in). */
    const logsSettled = async () => {
      let last = logEnds();
      await waitFor(
        'the instances’ logs to settle',
        () => {
          const now = logEnds();
          const same = now.every((n, i) => n === last[i]);
          last = now;
          return same;
        },
        10_000,
        200,
      );
      return last;
    };
    /**
     * The instances that answered a run must be the ones nginx was configured with: each at
     * least one request (an instance whose core other work keeps busy may get few: least_conn
     * prefers the quicker ones), the others under 1 % (a line of an earlier request may come
     * late from an instance whose core is busy).
     */
    const routedAs = (what: string, served: number[], count: number) => {
      const total = served.reduce((sum, n) => sum + n, 0);
      const wrong = served.some((n, i) => (i < count ? n === 0 : n > 0.01 * total));
      if (total === 0 || wrong)
        throw new Error(
          `${what}: requests answered by a, b, c: ${served.join(', ')} (expected the first ` +
            `${count} only)\n${cluster?.nginxErrors().slice(-2000) ?? ''}`,
        );
      return served.map((n) => n / total);
    };

    type Config = { kind: 'nginx'; count: number; nginxCpu: number | null } | { kind: 'direct' };
    const feedJob = (origin: string, seconds: number): LoadJob => ({
      url: `${origin}${FEED_PATH}`,
      connections: options.connections,
      duration: seconds,
      headers: auth,
    });
    const runFeed = async (config: Config, seconds: number) => {
      if (config.kind === 'nginx') {
        await nginx.balance(config.count);
        nginx.place(config.nginxCpu);
      }
      const origin = config.kind === 'nginx' ? nginxUrl : (instances[0]?.url ?? '');
      const what = config.kind === 'nginx' ? `feed, ${config.count} via nginx` : 'feed, direct';
      const ends = await logsSettled();
      const { result, usage: used } = await usage(parts, () =>
        worker.run(feedJob(origin, seconds)),
      );
      checked(what, result);
      await logsSettled();
      const shares = routedAs(what, servedSince(ends), config.kind === 'nginx' ? config.count : 1);
      return { rate: result.reqPerSec, used: { ...used, shares } };
    };

    // Feed configurations: through nginx with 1, 2, 3 instances (nginx on the load's core),
    // through nginx with 1 instance and nginx on the app's core, and direct to instance a.
    const scaling: Config[] = [1, 2, 3].map((count) => ({
      kind: 'nginx',
      count,
      nginxCpu: place.load,
    }));
    const through: Config = { kind: 'nginx', count: 1, nginxCpu: place.app };
    const direct: Config = { kind: 'direct' };
    // Palindromic rounds (the instance count changes twice per round, and no ratio's two runs
    // are always in the same order): direct, through, 1, 2, 3 | 3, 2, 1, through, direct | …
    const forward: Config[] = [direct, through, ...scaling];

    progress('cluster: warming up…');
    for (const config of forward) await runFeed(config, options.warmupSeconds);

    const feedRates = new Map<Config, number[]>(forward.map((c) => [c, []]));
    const feedUsage = new Map<Config, Usage[]>(forward.map((c) => [c, []]));
    const feedRatios = {
      scaling: [[], [], []] as number[][],
      nginx: [] as number[],
      nginxOther: [] as number[],
    };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 ? [...forward].reverse() : forward;
      const rates = new Map<Config, number>();
      for (const config of order) {
        const { rate, used } = await runFeed(config, options.seconds);
        rates.set(config, rate);
        feedRates.get(config)?.push(rate);
        feedUsage.get(config)?.push(used);
      }
      const one = rates.get(scaling[0]!) ?? NaN;
      scaling.forEach((config, i) => feedRatios.scaling[i]?.push((rates.get(config) ?? NaN) / one));
      feedRatios.nginx.push((rates.get(direct) ?? NaN) / (rates.get(through) ?? NaN));
      feedRatios.nginxOther.push((rates.get(direct) ?? NaN) / one);
      progress(`cluster: feed round ${round + 1}/${options.rounds} done`);
    }

    // Uploads: the 12 MP JPEG of bench/uploads.ts, `uploadsInFlight` at once, through nginx.
    const jpeg = await photoJpeg(4000, 3000, 90);
    const form = uploadForm(jpeg, 'IMG_0001.jpg', 'image/jpeg', seeded.projectId);
    const bodyFile = path.join(dir, 'upload-12mp.multipart');
    writeFileSync(bodyFile, form.payload);
    const uploadJob = (amount: number): LoadJob => ({
      url: `${nginxUrl}/api/upload/autoupload`,
      connections: options.uploadsInFlight,
      duration: 0,
      amount,
      method: 'POST',
      bodyFile,
      headers: { ...form.headers, ...auth },
      timeoutMs: 60_000,
    });
    const runUploads = async (count: number, amount: number) => {
      await nginx.balance(count);
      nginx.place(place.load);
      const what = `uploads, ${count} via nginx`;
      const ends = await logsSettled();
      const { result, usage: used } = await usage(parts, () => worker.run(uploadJob(amount)));
      checked(what, result);
      if (result.requests !== amount) throw new Error(`${what}: ${result.requests} of ${amount}`);
      await logsSettled();
      const shares = routedAs(what, servedSince(ends), count);
      return { rate: result.reqPerSec, used: { ...used, shares } };
    };
    progress('cluster: uploads, warming up…');
    for (const count of [1, 2, 3]) await runUploads(count, options.uploadsInFlight);
    const uploadRates: number[][] = [[], [], []];
    const uploadUsage: Usage[][] = [[], [], []];
    const uploadRatios: number[][] = [[], [], []];
    for (let round = 0; round < options.uploadRounds; round++) {
      const order = round % 2 ? [3, 2, 1] : [1, 2, 3];
      const rates: number[] = [];
      for (const count of order) {
        const { rate, used } = await runUploads(count, options.uploadBatch);
        rates[count - 1] = rate;
        uploadRates[count - 1]?.push(rate);
        uploadUsage[count - 1]?.push(used);
      }
      rates.forEach((rate, i) => uploadRatios[i]?.push(rate / (rates[0] ?? NaN)));
      progress(`cluster: upload round ${round + 1}/${options.uploadRounds} done`);
    }

    /* ---------- rows and notes ---------- */
    const target = (n: number) => (cores > n ? atLeast(NEAR_LINEAR * n) : undefined);
    const perSecond = (value: number) => `${value.toFixed(2)} /s`;
    const rows: Row[] = [];
    const feedOne = median(feedRates.get(scaling[0]!) ?? []);
    scaling.forEach((config, i) => {
      const n = i + 1;
      const ratio = median(feedRatios.scaling[i] ?? []);
      const rate = median(feedRates.get(config) ?? []);
      rows.push(
        n === 1
          ? measured(
              `${scalingMeasure(`home feed (GET ${FEED_PATH})`, 1)} (baseline)`,
              { value: reqPerSec(rate), ratio: times(1) },
              1,
            )
          : measured(
              scalingMeasure('home feed', n),
              {
                value: reqPerSec(rate),
                baseline: `1 instance ${reqPerSec(feedOne)}`,
                ratio: times(ratio),
              },
              ratio,
              target(n),
            ),
      );
    });
    const uploadOne = median(uploadRates[0] ?? []);
    const uploadWhat = `12 MP JPEG uploads (POST /api/upload/autoupload, ${options.uploadsInFlight} in flight)`;
    [1, 2, 3].forEach((n) => {
      const rate = median(uploadRates[n - 1] ?? []);
      const ratio = median(uploadRatios[n - 1] ?? []);
      rows.push(
        n === 1
          ? measured(
              `${scalingMeasure(uploadWhat, 1)} (baseline)`,
              { value: perSecond(rate), ratio: times(1) },
              1,
            )
          : measured(
              scalingMeasure('12 MP JPEG uploads', n),
              {
                value: perSecond(rate),
                baseline: `1 instance ${perSecond(uploadOne)}`,
                ratio: times(ratio),
              },
              ratio,
              target(n),
            ),
      );
    });
    const nginxRatio = median(feedRatios.nginx);
    const nginxOther = median(feedRatios.nginxOther);
    rows.push(
      measured(
        'nginx: home feed direct to 1 instance / through nginx (nginx on the app’s core)',
        {
          value: reqPerSec(median(feedRates.get(direct) ?? [])),
          baseline: `through nginx ${reqPerSec(median(feedRates.get(through) ?? []))}`,
          ratio: times(nginxRatio),
        },
        nginxRatio,
        atMost(NGINX_TARGET),
      ),
      measured(
        '↳ the same with nginx where the scaling rows put it (the load generator’s core)',
        {
          value: reqPerSec(median(feedRates.get(direct) ?? [])),
          baseline: `through nginx ${reqPerSec(feedOne)}`,
          ratio: times(nginxOther),
        },
        nginxOther,
      ),
    );

    const cores2 = (v: number | undefined) => (v ?? 0).toFixed(2);
    const allParts: Part[] = ['a', 'b', 'c', 'nginx', 'load', 'postgres', 's3rver', 'bench'];
    const medianOf = (runs: Usage[], part: Part) => median(runs.map((u) => u[part] ?? 0));
    const ourCores = (runs: Usage[]) =>
      allParts.map((part) => medianOf(runs, part)).reduce((sum, v) => sum + v, 0);
    const describe = (label: string, runs: Usage[], instancesUsed: number) => {
      const med = (part: Part) => medianOf(runs, part);
      const machine = (runs[0]?.machine ?? []).map((_, cpu) =>
        median(runs.map((u) => u.machine[cpu] ?? 0)),
      );
      const busy = machine.reduce((s, v) => s + v, 0);
      return (
        `${label}: cores used (median) — ` +
        (['a', 'b', 'c'] as const)
          .slice(0, instancesUsed)
          .map(
            (name, i) =>
              `instance ${name} ${cores2(med(name))} (${(
                median(runs.map((u) => u.shares?.[i] ?? 0)) * 100
              ).toFixed(0)} % of requests)`,
          )
          .join(', ') +
        `, nginx ${cores2(med('nginx'))}, load ${cores2(med('load'))}, PostgreSQL ${cores2(med('postgres'))}, ` +
        `s3rver ${cores2(med('s3rver'))}, bench ${cores2(med('bench'))}; machine ` +
        machine.map((v, cpu) => `CPU ${cpu} ${(v * 100).toFixed(0)} %`).join(', ') +
        ` (other work ≈ ${cores2(Math.max(0, busy - ourCores(runs)))})`
      );
    };
    /** CPU milliseconds per request of each part, with 1, 2 and 3 instances. */
    const perRequest = (label: string, usages: Usage[][], rates: number[]) => {
      const ms = (value: number) => value.toFixed(value < 10 ? 2 : 0);
      const columns: [string, (runs: Usage[]) => number][] = [
        [
          'instances',
          (runs) => (['a', 'b', 'c'] as Part[]).reduce((sum, p) => sum + medianOf(runs, p), 0),
        ],
        ['PostgreSQL', (runs) => medianOf(runs, 'postgres')],
        ['nginx', (runs) => medianOf(runs, 'nginx')],
        ['load', (runs) => medianOf(runs, 'load')],
        ['s3rver', (runs) => medianOf(runs, 's3rver')],
        ['bench', (runs) => medianOf(runs, 'bench')],
      ];
      return (
        `${label}, CPU ms per request with 1 / 2 / 3 instances: ` +
        columns
          .map(
            ([name, cores]) =>
              `${name} ${usages.map((runs, i) => ms((cores(runs) / (rates[i] ?? NaN)) * 1000)).join(' / ')}`,
          )
          .join('; ')
      );
    };
    const feedOneUsage = feedUsage.get(scaling[0]!) ?? [];
    const uploadOneUsage = uploadUsage[0] ?? [];
    const notes = [
      `cluster: ${place.note}`,
      `cluster: ${INSTANCES} instances (NODE_ENV=production, LOG_LEVEL info, STORAGE=s3), one ` +
        `PostgreSQL database, one s3rver bucket, nginx (deploy/nginx.conf, ${NGINX_WORKERS} ` +
        `worker, its access log off); up in ${startSeconds.toFixed(0)} s; ${SEEDED_UPLOADS} photos ` +
        'seeded once through the upload pipeline; 1–3 instances by rewriting ' +
        'sitelog-upstreams.conf and reloading nginx',
      `cluster: feed: autocannon, ${options.connections} connections, ${options.rounds} palindromic rounds ` +
        `of ${options.seconds} s per configuration; uploads: batches of ${options.uploadBatch} with ` +
        `${options.uploadsInFlight} in flight, ${options.uploadRounds} rounds; ratios are medians ` +
        'of the per-round ratios to 1 instance (nginx row: direct / through nginx)',
      ...scaling.map((config, i) =>
        describe(`cluster: feed, ${i + 1} instance(s)`, feedUsage.get(config) ?? [], i + 1),
      ),
      describe('cluster: feed, direct to instance a', feedUsage.get(direct) ?? [], 1),
      describe('cluster: feed, 1 instance, nginx on CPU 0', feedUsage.get(through) ?? [], 1),
      ...[1, 2, 3].map((n) =>
        describe(`cluster: uploads, ${n} instance(s)`, uploadUsage[n - 1] ?? [], n),
      ),
      perRequest(
        'cluster: feed',
        scaling.map((config) => feedUsage.get(config) ?? []),
        scaling.map((config) => median(feedRates.get(config) ?? [])),
      ),
      perRequest(
        'cluster: uploads',
        uploadUsage,
        uploadRates.map((rates) => median(rates)),
      ),
      `cluster: ceiling of any number of instances on ${cores} cores, were the machine ours alone ` +
        'and each request to cost what it did with 1 instance (cores / cores all our parts used ' +
        `with 1 instance): feed ${times(cores / ourCores(feedOneUsage))}, uploads ` +
        `${times(cores / ourCores(uploadOneUsage))}`,
    ];
    return { rows, notes };
  } finally {
    load?.stop();
    if (ownMask)
      spawnSync('taskset', ['-a', '-p', ownMask, String(process.pid)], { stdio: 'ignore' });
    await cluster?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const value = (name: string) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, key: keyof ClusterBenchOptions) => {
    const v = value(name);
    return v === undefined ? {} : { [key]: Number(v) };
  };
  const result = await measureCluster(
    {
      ...fullCluster,
      pin: !process.argv.includes('--no-pin'),
      ...number('rounds', 'rounds'),
      ...number('seconds', 'seconds'),
      ...number('upload-rounds', 'uploadRounds'),
      ...number('connections', 'connections'),
      ...number('in-flight', 'uploadsInFlight'),
    },
    (line) => console.error(line),
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log(formatTable(result.rows));
}
