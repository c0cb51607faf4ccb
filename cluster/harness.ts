// The cluster harness (issue 17): several Sitelog instances behind Debian's nginx, on one
// PostgreSQL database and one S3-compatible bucket, each a process of its own, as in production.
//
// - PostgreSQL: a fresh database on the machine's server (TEST_DATABASE_URL, else
//   postgres://postgres@127.0.0.1:5432/postgres), or a private server (`postgres: 'private'`) that
//   a fault test may stop and start; or `databaseUrl` as it is (`npm run cluster`).
// - The bucket: s3rver, started as its own process.
// - Migrations: `npm run db:migrate`'s script, once; the instances run with MIGRATE_ON_START=off.
// - The instances: apps/server/src/main.ts, each with its own DATA_DIR and port, one SECRET,
//   STORAGE=s3, MEDIA_DELIVERY=app (media through nginx; `mediaDelivery` to change), TRUST_PROXY=1.
// - nginx: the repo's deploy/nginx.conf itself, included from a small main config written here
//   with the two site files it expects (sitelog-upstreams.conf, sitelog-site.conf).
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, privateServer, type ClusterDatabase } from './postgres.js';
import { answers200, Child, freePort, waitFor, type ExitInfo } from './processes.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const nginxConfFile = path.join(repoRoot, 'deploy', 'nginx.conf');
const mainFile = path.join(repoRoot, 'apps/server/src/main.ts');
const migrateFile = path.join(repoRoot, 'apps/server/src/db/migrate-cli.ts');
const require = createRequire(import.meta.url);

export const S3_BUCKET = 'sitelog-cluster';

export interface ClusterOptions {
  /** App instances behind nginx (default 2). */
  instances?: number;
  /** `shared` (default): a fresh database on the machine's server; `private`: initdb's own. */
  postgres?: 'shared' | 'private';
  /** Use this database as it is (overrides `postgres`; it is not dropped at the end). */
  databaseUrl?: string;
  /** Create the sample workspace on the empty database (default off). */
  sampleData?: boolean;
  /**
   * MEDIA_DELIVERY (default `app`): the instances serve media through /media links, through
   * nginx, as a cluster with its bucket on a private network runs; `bucket` hands out presigned
   * bucket URLs.
   */
  mediaDelivery?: 'bucket' | 'app';
  /** Extra environment for every instance (e.g. IMAGE_CONCURRENCY, SWEEP_INTERVAL_SECONDS). */
  env?: Record<string, string>;
  /** Instances' LOG_LEVEL (default info: the access log names each request). */
  logLevel?: string;
  /** nginx's port (default: a free one). */
  port?: number;
  /** The instances' ports, in order (default: free ones). */
  instancePorts?: number[];
  /** nginx's `fail_timeout` for each instance (default 2 s: a restarted one rejoins quickly). */
  failTimeoutSeconds?: number;
  /** nginx's access log (default on; benchmarks turn it off). */
  accessLog?: boolean;
  /** nginx worker processes (default 1). */
  nginxWorkers?: number | 'auto';
  /** Serve the production build of the web app (NODE_ENV=production; build it first). */
  production?: boolean;
  /** Keep the temp folder (logs, data dirs) after close (default: only when CLUSTER_KEEP is set). */
  keep?: boolean;
}

/** One JSON line of an instance's log. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: number };

export interface Instance {
  readonly name: string;
  readonly port: number;
  /** Its own address, bypassing nginx. */
  readonly url: string;
  readonly dataDir: string;
  readonly running: boolean;
  readonly pid: number | undefined;
  /** Everything it wrote since the harness started it the first time. */
  output(): string;
  /** Its JSON log lines (across restarts). */
  logs(): LogLine[];
  /** Starts it (again) on the same port and data dir, and waits until its health answers 200. */
  start(): Promise<void>;
  /** SIGTERM (a graceful stop): waits for the exit. */
  stop(): Promise<ExitInfo>;
  /** SIGKILL: waits for the exit. */
  kill(): Promise<ExitInfo>;
  /** Sends a signal without waiting. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves when it exits. */
  exited(): Promise<ExitInfo>;
}

export interface Cluster {
  /** nginx's address: what clients use. */
  readonly url: string;
  readonly instances: Instance[];
  /** The environment every instance runs with (database, bucket, SECRET, …). */
  readonly env: Record<string, string>;
  readonly databaseUrl: string;
  /** The private PostgreSQL server's controls (`postgres: 'private'` only). */
  readonly postgres: Pick<ClusterDatabase, 'stop' | 'start'>;
  /** The S3 server's controls. */
  readonly s3: { endpoint: string; bucket: string; stop(): Promise<void>; start(): Promise<void> };
  readonly dir: string;
  /** nginx's access log (one line per request: upstream address, status, time). */
  accessLog(): string;
  /** The access log's file, to read it from another process (removed by close()). */
  readonly accessLogFile: string;
  nginxErrors(): string;
  close(): Promise<void>;
}

function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('The cluster needs nginx (Debian: apt install nginx; .ci/run installs it).');
  }
}

function parseLogLines(text: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // not a log line (a stack trace's continuation)
    }
  }
  return lines;
}

/** Starts the S3 server (s3rver) as its own process with one empty bucket. */
async function startS3(dir: string) {
  const port = await freePort();
  const bin = require.resolve('s3rver/bin/s3rver.js');
  const directory = path.join(dir, 's3');
  mkdirSync(directory, { recursive: true });
  let child: Child | null = null;
  const endpoint = `http://127.0.0.1:${port}`;
  const start = async () => {
    child = new Child(
      process.execPath,
      [
        bin,
        '-d',
        directory,
        '-a',
        '127.0.0.1',
        '-p',
        String(port),
        '--configure-bucket',
        S3_BUCKET,
      ],
      { cwd: dir, logFile: path.join(dir, 's3.log') },
    );
    const started = child;
    await waitFor('the S3 server', async () => {
      if (!started.running) throw new Error(`s3rver exited:\n${started.output()}`);
      const res = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return true;
    });
  };
  await start();
  return {
    endpoint,
    bucket: S3_BUCKET,
    start,
    stop: async () => {
      if (child) await child.stop('SIGTERM', 5000);
    },
  };
}

function writeNginxFiles(
  dir: string,
  port: number,
  upstreams: { port: number }[],
  options: ClusterOptions,
): string {
  const confDir = path.join(dir, 'nginx');
  mkdirSync(confDir, { recursive: true });
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(path.join(confDir, sub), { recursive: true });
  const failTimeout = options.failTimeoutSeconds ?? 2;
  writeFileSync(
    path.join(confDir, 'sitelog-upstreams.conf'),
    upstreams
      .map((u) => `server 127.0.0.1:${u.port} max_fails=1 fail_timeout=${failTimeout}s;\n`)
      .join(''),
  );
  writeFileSync(
    path.join(confDir, 'sitelog-site.conf'),
    `listen 127.0.0.1:${port};\nserver_name localhost;\n`,
  );
  const user = process.getuid?.() === 0 ? 'user root root;\n' : '';
  const accessLog =
    options.accessLog === false
      ? 'access_log off;'
      : `log_format cluster '$remote_addr "$request" $status upstream=$upstream_addr ` +
        `upstream_status=$upstream_status time=$request_time';\n` +
        `  access_log ${path.join(confDir, 'access.log')} cluster;`;
  const main = `# Written by cluster/harness.ts: the main context around deploy/nginx.conf.
${user}daemon off;
worker_processes ${options.nginxWorkers ?? 1};
pid ${path.join(confDir, 'nginx.pid')};
error_log ${path.join(confDir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  ${accessLog}
  client_body_temp_path ${path.join(confDir, 'client_body')};
  proxy_temp_path ${path.join(confDir, 'proxy')};
  fastcgi_temp_path ${path.join(confDir, 'fastcgi')};
  uwsgi_temp_path ${path.join(confDir, 'uwsgi')};
  scgi_temp_path ${path.join(confDir, 'scgi')};
  include ${nginxConfFile};
}
`;
  const mainFileName = path.join(confDir, 'nginx.conf');
  writeFileSync(mainFileName, main);
  return mainFileName;
}

/** Starts a cluster; `close()` stops every process it started and removes its temp folder. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.instances ?? 2;
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-cluster-'));
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
    cleanups.length = 0;
    if (!(options.keep ?? !!process.env.CLUSTER_KEEP))
      rmSync(dir, { recursive: true, force: true });
  };
  try {
    let database: ClusterDatabase;
    if (options.databaseUrl) database = { url: options.databaseUrl, close: async () => undefined };
    else if (options.postgres === 'private') database = await privateServer(path.join(dir, 'pg'));
    else database = await freshDatabase(process.env.TEST_DATABASE_URL);
    cleanups.push(() => database.close());

    const s3 = await startS3(dir);
    cleanups.push(() => s3.stop());

    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NODE_ENV: options.production ? 'production' : 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      MIGRATE_ON_START: 'off',
      SAMPLE_DATA: options.sampleData ? 'on' : 'off',
      SECRET: randomBytes(32).toString('base64url'),
      STORAGE: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'on',
      MEDIA_DELIVERY: options.mediaDelivery ?? 'app',
      TRUST_PROXY: '1',
      LOG_LEVEL: options.logLevel ?? 'info',
      ...options.env,
    };

    // Migrations once, before any instance starts (MIGRATE_ON_START=off on every instance).
    execFileSync(process.execPath, ['--import', 'tsx', migrateFile], {
      cwd: repoRoot,
      env,
      stdio: 'pipe',
    });

    const instances: (Instance & { startPromise?: Promise<void> })[] = [];
    for (let i = 0; i < count; i += 1) {
      const name = String.fromCharCode('a'.charCodeAt(0) + i);
      const port = options.instancePorts?.[i] ?? (await freePort());
      const dataDir = path.join(dir, `instance-${name}`);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      instances.push(makeInstance({ name, port, dataDir, env, dir }));
    }
    // Stopped at the end even when one fails to start (the others are running by then).
    cleanups.push(async () => {
      await Promise.all(instances.map((instance) => instance.stop()));
    });
    // All at once, as a deploy starts them (the sample seeding is raced on purpose); every start
    // is waited for before a failure is reported, so none is left running unseen.
    const started = await Promise.allSettled(instances.map((instance) => instance.start()));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;

    const port = options.port ?? (await freePort());
    const mainConf = writeNginxFiles(dir, port, instances, options);
    const confDir = path.dirname(mainConf);
    const nginx = new Child(
      nginxBinary(),
      ['-e', path.join(confDir, 'error.log'), '-p', confDir, '-c', mainConf],
      { cwd: confDir, logFile: path.join(confDir, 'nginx.out') },
    );
    cleanups.push(async () => {
      await nginx.stop('SIGQUIT', 10_000);
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor('nginx', async () => {
      if (!nginx.running) throw new Error(`nginx exited:\n${nginx.output()}`);
      return answers200(`${url}/api/health`);
    });

    const read = (file: string) => {
      try {
        return readFileSync(path.join(confDir, file), 'utf8');
      } catch {
        return '';
      }
    };
    return {
      url,
      instances,
      env,
      databaseUrl: database.url,
      postgres: { stop: database.stop, start: database.start },
      s3: { endpoint: s3.endpoint, bucket: s3.bucket, stop: s3.stop, start: s3.start },
      dir,
      accessLog: () => read('access.log'),
      accessLogFile: path.join(confDir, 'access.log'),
      nginxErrors: () => read('error.log'),
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function makeInstance(spec: {
  name: string;
  port: number;
  dataDir: string;
  env: Record<string, string>;
  dir: string;
}): Instance {
  const url = `http://127.0.0.1:${spec.port}`;
  let child: Child | null = null;
  let previous = '';
  const output = () => previous + (child?.output() ?? '');
  return {
    name: spec.name,
    port: spec.port,
    url,
    dataDir: spec.dataDir,
    get running() {
      return child?.running ?? false;
    },
    get pid() {
      return child?.pid;
    },
    output,
    logs: () => parseLogLines(output()),
    async start() {
      if (child?.running) return;
      if (child) previous += child.output();
      // tsx as a loader, not a wrapper process, so a signal reaches the server itself.
      const started = new Child(process.execPath, ['--import', 'tsx', mainFile], {
        cwd: repoRoot,
        env: { ...spec.env, PORT: String(spec.port), DATA_DIR: spec.dataDir },
        logFile: path.join(spec.dir, `instance-${spec.name}.log`),
      });
      child = started;
      await waitFor(
        `instance ${spec.name}`,
        async () => {
          if (!started.running) throw new Error(`instance ${spec.name} exited:\n${output()}`);
          return answers200(`${url}/api/health`);
        },
        120_000,
      );
    },
    stop: async () => (child ? child.stop('SIGTERM') : { code: 0, signal: null }),
    kill: async () => (child ? child.stop('SIGKILL') : { code: 0, signal: null }),
    signal(signal) {
      child?.process.kill(signal);
    },
    exited: () => (child ? child.exited : Promise.resolve({ code: 0, signal: null })),
  };
}
