// What the backup and restore commands share: output, options, failures, parallel work.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import { BackupError } from './backup-archive.js';

/** Where a CLI writes; the test passes its own to read what was said. */
export interface CliOutput {
  log: (line: string) => void;
  error: (line: string) => void;
}

export const consoleOutput: CliOutput = {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

/**
 * Runs `work` on every item of `items`, `limit` at a time. The first failure stops the rest from
 * starting, and is thrown once the running ones have settled (so none writes after a cleanup).
 */
export async function forEachConcurrently<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failed = false;
  const worker = async () => {
    for (let next = iterator.next(); !next.done && !failed; next = iterator.next()) {
      try {
        await work(next.value);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: limit }, worker));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Parses a CLI's one folder option; `null` when it printed the help. Refusals are BackupErrors
 * that name the problem and point at --help.
 */
export function parseFolderOption(
  argv: string[],
  option: 'to' | 'from',
  usage: string,
  out: CliOutput,
): string | null {
  let values: { [name: string]: string | boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { [option]: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new BackupError(`${(err as Error).message}\n\n${usage}`);
  }
  if (values.help) {
    out.log(usage);
    return null;
  }
  const folder = values[option];
  if (typeof folder !== 'string' || folder.trim() === '')
    throw new BackupError(`Missing --${option} DIR.\n\n${usage}`);
  return path.resolve(folder);
}

/** Prints a CLI failure: our refusals as their message, anything else with its stack. */
export function reportFailure(what: string, err: unknown, out: CliOutput): void {
  if (err instanceof BackupError || err instanceof ConfigError)
    out.error(`${what}: ${err.message}`);
  else
    out.error(`${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
