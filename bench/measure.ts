// Timing helpers shared by the benchmark scripts: medians, one timed call, and the interleaved
// comparison against a baseline that every bench reports (the machine is shared and noisy).
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROUNDS = 7;
export const CALLS_PER_ROUND = 3;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Milliseconds one call takes. */
export async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export interface Comparison {
  /** Median milliseconds of `a` and of `b` over every call. */
  a: number;
  b: number;
  /** Median of the per-round ratios median(a) / median(b). */
  ratio: number;
}

/** Runs `a` and `b` once to warm up, then interleaves them call by call for several rounds. */
export async function compare(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  rounds = ROUNDS,
  calls = CALLS_PER_ROUND,
): Promise<Comparison> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ra: number[] = [];
    const rb: number[] = [];
    for (let c = 0; c < calls; c++) {
      ra.push(await time(a));
      rb.push(await time(b));
    }
    as.push(...ra);
    bs.push(...rb);
    ratios.push(median(ra) / median(rb));
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

/** Whether the module at `moduleUrl` is the script node was started with (not imported). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && moduleUrl === pathToFileURL(path.resolve(script)).href;
}

/** The 1-, 5- and 15-minute load averages, e.g. "3.49 1.61 0.71". */
export const loadAverage = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
