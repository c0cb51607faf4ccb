import { reportTypes, type ReportType } from '@sitelog/shared';
import type { ReportsFilter } from './api/get-reports';

/** An id from the address: a positive whole number, else no filter. */
function readId(value: string | null): number | undefined {
  if (value === null || !/^[1-9]\d{0,9}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : undefined;
}

const isReportType = (value: string | null): value is ReportType =>
  value !== null && (reportTypes as readonly string[]).includes(value);

/** The filters from /reports?project=…&type=…&author=… (anything unreadable is no filter). */
export function readReportsFilter(params: URLSearchParams): ReportsFilter {
  const filter: ReportsFilter = {};
  const project = readId(params.get('project'));
  if (project !== undefined) filter.project = project;
  const type = params.get('type');
  if (isReportType(type)) filter.type = type;
  const author = readId(params.get('author'));
  if (author !== undefined) filter.author = author;
  return filter;
}

/** The filters a change may set: a value, or null to drop it. */
export type ReportsFilterChange = { [K in keyof ReportsFilter]?: ReportsFilter[K] | null };

/** The address's parameters with `changes` applied (other parameters kept). */
export function writeReportsFilter(
  params: URLSearchParams,
  changes: ReportsFilterChange,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['project', 'type', 'author'] as const) {
    if (!(key in changes)) continue;
    const value = changes[key];
    if (value === null || value === undefined) next.delete(key);
    else next.set(key, String(value));
  }
  return next;
}
