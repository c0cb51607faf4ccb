// The one table `npm run bench` prints: each measure with its baseline, ratio, target and verdict.
// A verdict is "ok" or "miss" against the target; "FAIL" only where the figure is more than
// FAIL_FACTOR times worse than the target (a catastrophic regression such as an N+1 query), so
// the CI-sized run fails on that and never on an ordinary miss of a noisy shared machine.

export const FAIL_FACTOR = 3;

/** `min`: higher is better (at least `value`); `max`: lower is better (at most `value`). */
export interface Target {
  kind: 'min' | 'max';
  value: number;
  /** How the target reads in the table, e.g. "≥ 0.30×" or "≤ 140 KiB". */
  label: string;
}

export const atLeast = (value: number, unit = '×'): Target => ({
  kind: 'min',
  value,
  label: `≥ ${value.toFixed(2)}${unit}`,
});
export const atMost = (value: number, unit = '×'): Target => ({
  kind: 'max',
  value,
  label: `≤ ${value}${unit === '×' ? '×' : ` ${unit}`}`,
});

export type Verdict = 'ok' | 'miss' | 'FAIL' | 'report' | 'not measured yet';

export interface Row {
  measure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  verdict: Verdict;
}

/**
 * A measured row. `checked` is the figure the target applies to: the ratio for ratio targets,
 * the value itself for absolute ones (the initial JS in KiB).
 */
export function measured(
  measure: string,
  cells: { value: string; baseline?: string; ratio?: string },
  checked: number,
  target?: Target,
  reachable?: number,
): Row {
  return {
    measure,
    value: cells.value,
    baseline: cells.baseline ?? '',
    ratio: cells.ratio ?? '',
    target: target?.label ?? '',
    verdict: target ? verdict(checked, target, reachable) : 'report',
  };
}

export function notMeasured(measure: string, target: string, why: string): Row {
  return { measure, value: why, baseline: '', ratio: '', target, verdict: 'not measured yet' };
}

/**
 * `reachable` (an "at least" target only) is what a hand-written server reaches on this machine
 * for the same call. Where that is below the target, the FAIL line is a third of it instead of a
 * third of the target: a row must not fail on what no code could reach here, and still fails on
 * a collapse (an N+1 query) against what the machine can do. The verdict against the target
 * itself (ok or miss) is unchanged.
 */
export function verdict(checked: number, target: Target, reachable?: number): Verdict {
  if (!Number.isFinite(checked)) return 'FAIL';
  if (target.kind === 'min') {
    if (checked >= target.value) return 'ok';
    // A reference that measured nothing usable (NaN, 0) must not switch the FAIL line off.
    const failLine =
      reachable !== undefined && Number.isFinite(reachable) && reachable > 0
        ? Math.min(target.value, reachable)
        : target.value;
    return checked * FAIL_FACTOR < failLine ? 'FAIL' : 'miss';
  }
  if (checked <= target.value) return 'ok';
  return checked > target.value * FAIL_FACTOR ? 'FAIL' : 'miss';
}

const columns = ['measure', 'value', 'baseline', 'ratio', 'target', 'verdict'] as const;
const rightAligned = new Set<number>([columns.indexOf('value'), columns.indexOf('ratio')]);

/** The rows as a Markdown table, padded so it also reads in a terminal. */
export function formatTable(rows: Row[]): string {
  const body = rows.map((row) => columns.map((column) => row[column]));
  const widths = columns.map((column, i) =>
    Math.max(column.length, ...body.map((cells) => cells[i]?.length ?? 0)),
  );
  const line = (cells: readonly string[], align: boolean) =>
    `| ${cells
      .map((text, i) =>
        align && rightAligned.has(i) ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(columns, false), rule, ...body.map((cells) => line(cells, true))].join('\n');
}

export const reqPerSec = (value: number) => `${Math.round(value).toLocaleString('en-US')} req/s`;
export const millis = (value: number) => `${value.toFixed(0)} ms`;
export const times = (value: number) => `${value.toFixed(2)}×`;
