// The cluster's PostgreSQL: a fresh database on a running server (the machine's, by default), or a
// private server made with initdb in a temp folder, which a fault test may stop and restart.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Child, freePort, waitFor, type ExitInfo } from './processes.js';

export interface ClusterDatabase {
  /** The database the instances use. */
  url: string;
  /** Only for a private server: stops it (`fast`: sessions cut, as a restart does). */
  stop?: () => Promise<ExitInfo>;
  /** Only for a private server: starts it again on the same port and folder. */
  start?: () => Promise<void>;
  close: () => Promise<void>;
}

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new empty database on the server `serverUrl` points at, dropped by `close`. */
export async function freshDatabase(serverUrl = DEFAULT_SERVER): Promise<ClusterDatabase> {
  const name = `sitelog_cluster_${process.pid}_${Date.now().toString(36)}_${Math.floor(
    Math.random() * 1e6,
  ).toString(36)}`;
  await adminQuery(serverUrl, `create database ${name}`);
  return {
    url: withDatabase(serverUrl, name),
    close: async () => {
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** The newest PostgreSQL server binaries on this machine (Debian: /usr/lib/postgresql/<v>/bin). */
export function postgresBinDir(): string {
  const fromConfig = (() => {
    try {
      return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    } catch {
      return null;
    }
  })();
  if (fromConfig && existsSync(path.join(fromConfig, 'initdb'))) return fromConfig;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      'A private PostgreSQL server needs initdb and postgres (Debian: apt install postgresql).',
    );
  return path.join(root, versions[0]!, 'bin');
}

/**
 * A private PostgreSQL server in `dir` on a free port (trust auth, fsync off: a test server). As
 * root it runs as the `postgres` account, which PostgreSQL requires.
 */
export async function privateServer(dir: string): Promise<ClusterDatabase> {
  const bin = postgresBinDir();
  const dataDir = path.join(dir, 'pgdata');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    ids = { uid, gid };
    // The postgres account must reach `dir`: its parent (the harness's mkdtemp folder, 0700)
    // gets search permission for others, not read (nobody else can list it).
    const parent = path.dirname(dir);
    const mode = statSync(parent).mode & 0o7777;
    if ((mode & 0o001) === 0) chmodSync(parent, mode | 0o001);
    chownSync(dir, uid, gid);
    chownSync(dataDir, uid, gid);
  }
  execFileSync(
    path.join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'],
    { ...ids, stdio: 'pipe', cwd: dir },
  );
  const port = await freePort();
  const serverUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: Child | null = null;
  const start = async () => {
    child = new Child(
      path.join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      { ...ids, cwd: dir, logFile: path.join(dir, 'postgres.log') },
    );
    const started = child;
    await waitFor('the private PostgreSQL server', async () => {
      if (!started.running) throw new Error(`postgres exited:\n${started.output()}`);
      const client = new pg.Client({ connectionString: serverUrl });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  };
  // SIGINT is PostgreSQL's "fast" shutdown: sessions are cut, as in a restart for an upgrade.
  const stop = async () => (child ? child.stop('SIGINT', 30_000) : { code: 0, signal: null });
  try {
    await start();
    await adminQuery(serverUrl, 'create database sitelog');
  } catch (err) {
    // A server that started (or half did) is not left running behind a failed start.
    await stop();
    throw err;
  }
  return {
    url: withDatabase(serverUrl, 'sitelog'),
    stop,
    start,
    close: async () => {
      await stop();
    },
  };
}
