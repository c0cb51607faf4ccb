import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { isDatabaseUnavailable, outageReason } from '../db/database-errors.js';
import { StorageError, type Storage, type StoredObjectInfo } from './storage/index.js';

export interface SweeperLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SweeperDeps {
  /**
   * The keys among `keys` that the database still references (the uploads repository answers;
   * the media layer never reads module tables).
   */
  findReferencedKeys: (keys: string[]) => Promise<Set<string>>;
  /**
   * The keys among `keys` that a report still names (the reports service answers). When given,
   * report PDFs under `reports/` that no report names (a crash between storing a PDF and marking
   * its report ready; a report whose project was deleted) are swept too, after the same grace.
   */
  findReferencedReportKeys?: (keys: string[]) => Promise<Set<string>>;
  storage: Storage;
  config: Pick<Config, 'uploads'>;
  log?: SweeperLogger;
}

export interface SweepOptions {
  /** Temp upload files older than this are leftovers of crashed or abandoned requests. */
  tempMaxAgeMs?: number;
  /**
   * Objects no upload row references are removed only once they are this old: an upload in
   * progress writes its files before inserting its row.
   */
  orphanMinAgeMs?: number;
  /** Only objects under this prefix are swept (every upload key starts with it). */
  prefix?: string;
  /** Keys checked against the database per query. */
  batchSize?: number;
  /**
   * Whether to sweep the shared storage (orphaned objects) too, or only this instance's temp
   * folder (default: both). Only the sweeper leader sweeps the storage.
   */
  orphans?: boolean;
  now?: number;
}

export interface SweepResult {
  tempFilesRemoved: number;
  orphansRemoved: number;
}

const DEFAULTS = {
  tempMaxAgeMs: 30 * 60_000,
  orphanMinAgeMs: 60 * 60_000,
  prefix: 'uploads/',
  batchSize: 500,
  orphans: true,
};

async function sweepTempDir(tempDir: string, olderThan: number): Promise<number> {
  let dir;
  try {
    dir = await opendir(tempDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for await (const entry of dir) {
    if (!entry.isFile()) continue;
    const file = path.join(tempDir, entry.name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < olderThan) {
      await rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

type SweeperParts = Pick<SweeperDeps, 'findReferencedKeys' | 'storage'>;

async function sweepOrphans(
  deps: SweeperParts,
  options: Required<Omit<SweepOptions, 'now'>>,
  now: number,
) {
  const olderThan = now - options.orphanMinAgeMs;
  let removed = 0;
  let batch: StoredObjectInfo[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const referenced = await deps.findReferencedKeys(batch.map((o) => o.key));
    for (const object of batch) {
      if (referenced.has(object.key)) continue;
      await deps.storage.delete(object.key);
      removed += 1;
    }
    batch = [];
  };
  for await (const object of deps.storage.list(options.prefix)) {
    if (object.lastModified.getTime() >= olderThan) continue;
    batch.push(object);
    if (batch.length >= options.batchSize) await flush();
  }
  await flush();
  return removed;
}

/**
 * One sweep: removes stale temp files from `config.uploads.tempDir` (uploads', and report PDFs
 * being written), and stored objects under `uploads/` (and `reports/`, when the deps can tell)
 * that nothing in the database references (after a grace period, measured from the object's own
 * `lastModified`, so another instance's upload in flight is left alone). Safe to run on several
 * instances at once: every step is idempotent (yet only the leader sweeps the storage, so a
 * bucket is listed once per round, not once per instance).
 */
export async function sweepOnce(
  deps: SweeperDeps,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const opts = { ...DEFAULTS, ...options };
  const now = options.now ?? Date.now();
  const tempFilesRemoved = await sweepTempDir(deps.config.uploads.tempDir, now - opts.tempMaxAgeMs);
  if (!opts.orphans) return { tempFilesRemoved, orphansRemoved: 0 };
  let orphansRemoved = await sweepOrphans(deps, opts, now);
  if (deps.findReferencedReportKeys)
    orphansRemoved += await sweepOrphans(
      { storage: deps.storage, findReferencedKeys: deps.findReferencedReportKeys },
      { ...opts, prefix: 'reports/' },
      now,
    );
  return { tempFilesRemoved, orphansRemoved };
}

/**
 * Runs `sweepOnce` shortly after start and then every `intervalMs` (default: hourly), never two
 * at once. Every instance sweeps its own temp folder; the shared storage is swept only while
 * `leader` says this instance leads (always, without one). A failed sweep (the database or the
 * bucket down) is logged and the next round tries again. Returns `stop`, which cancels the timer
 * and waits for a sweep in progress.
 */
export function startSweeper(
  deps: SweeperDeps,
  options: SweepOptions & {
    intervalMs?: number;
    initialDelayMs?: number;
    leader?: { isLeader(): boolean };
  } = {},
): () => Promise<void> {
  const {
    intervalMs = 60 * 60_000,
    initialDelayMs = Math.min(60_000, intervalMs),
    leader,
    ...sweepOptions
  } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      const orphans = (sweepOptions.orphans ?? true) && (leader?.isLeader() ?? true);
      running = sweepOnce(deps, { ...sweepOptions, orphans })
        .then(
          (result) => {
            if (result.tempFilesRemoved || result.orphansRemoved)
              deps.log?.info(result, 'media sweep removed leftovers');
          },
          (err: unknown) => {
            // An outage is expected to end: one line, no stack, and the next round tries again.
            if (isDatabaseUnavailable(err) || err instanceof StorageError)
              deps.log?.warn(
                { reason: outageReason(err) },
                'media sweep failed: the database or the storage cannot be reached; trying again next round',
              );
            else deps.log?.error({ err }, 'media sweep failed');
          },
        )
        .finally(() => {
          running = null;
          schedule(intervalMs);
        });
    }, delay);
    timer.unref();
  };
  schedule(initialDelayMs);

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}
