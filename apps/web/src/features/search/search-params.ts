import { searchLimits, searchTypes, type SearchType } from '@sitelog/shared';

/** What the search page shows, as its address says it (`/search?q=…&type=…&project=…`). */
export interface SearchFilters {
  q: string;
  /** The section shown, or all of them. */
  type: SearchType;
  /** Photos and reports of this project only. */
  project: number | null;
  /** Photos and reports by this member only. */
  author: number | null;
  /**
   * First day of the date range (YYYY-MM-DD, inclusive): of a photo's upload or capture (`by`),
   * of the day a report was made.
   */
  from: string | null;
  /** Last day of the date range (YYYY-MM-DD, inclusive). */
  to: string | null;
  /** Which time of a photo the date range applies to (a report's is the day it was made). */
  by: DateBasis;
  /** Archived projects (and their photos and reports) are included. */
  archived: boolean;
}

export type DateBasis = 'uploaded' | 'captured';
/** One section of the results, as the API names it. */
export type SearchSection = Exclude<SearchType, 'all'>;

/** The photo and report filters, which a "clear" resets (the query and the section stay). */
export const photoFilterDefaults = {
  project: null,
  author: null,
  from: null,
  to: null,
  by: 'uploaded',
  archived: false,
} as const satisfies Partial<SearchFilters>;

const ID = /^[1-9][0-9]{0,9}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const readId = (value: string | null): number | null =>
  value !== null && ID.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : null;

/** A real calendar day written YYYY-MM-DD, or null. */
export function readDay(value: string | null): string | null {
  if (value === null || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : null;
}

/**
 * The filters an address holds. What a hand-edited link spells wrongly is left out rather than
 * sent, so the page shows what it can (the server would refuse the whole search).
 */
export function readSearchParams(params: URLSearchParams): SearchFilters {
  const type = params.get('type');
  const from = readDay(params.get('from'));
  const to = readDay(params.get('to'));
  // A range that ends before it starts (typed into a date field, or a hand-edited link) is read
  // the right way round.
  const [first, last] = from !== null && to !== null && from > to ? [to, from] : [from, to];
  return {
    // As long as the server takes; a longer paste is searched for its start.
    q: (params.get('q')?.trim() ?? '').slice(0, searchLimits.queryMax).trim(),
    type: (searchTypes as readonly string[]).includes(type ?? '') ? (type as SearchType) : 'all',
    project: readId(params.get('project')),
    author: readId(params.get('author')),
    from: first,
    to: last,
    by: params.get('by') === 'captured' ? 'captured' : 'uploaded',
    archived: params.get('archived') === 'true',
  };
}

/**
 * `params` with `changes` written in. Defaults are left out of the address (`type=all`,
 * `by=uploaded`, `archived=false`), and parameters that are not the search's (the viewer's
 * `photo`) are kept.
 */
export function writeSearchParams(
  params: URLSearchParams,
  changes: Partial<SearchFilters>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (key: string, value: string | null) => {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  };
  if (changes.q !== undefined) set('q', changes.q.trim());
  if (changes.type !== undefined) set('type', changes.type === 'all' ? null : changes.type);
  if (changes.project !== undefined) set('project', changes.project?.toString() ?? null);
  if (changes.author !== undefined) set('author', changes.author?.toString() ?? null);
  if (changes.from !== undefined) set('from', changes.from);
  if (changes.to !== undefined) set('to', changes.to);
  if (changes.by !== undefined) set('by', changes.by === 'uploaded' ? null : changes.by);
  if (changes.archived !== undefined) set('archived', changes.archived ? 'true' : null);
  return next;
}

/**
 * How many filters narrow the results: project, author, the date range (one, whichever ends it
 * has) and archived projects. Which time the dates apply to counts with them.
 */
export function countFilters(filters: SearchFilters): number {
  return [
    filters.project !== null,
    filters.author !== null,
    filters.from !== null || filters.to !== null,
    filters.archived,
  ].filter(Boolean).length;
}

/** Whether the query is long enough to be sent (shorter ones get a hint, not a request). */
export const isSearchable = (q: string) => q.trim().length >= searchLimits.queryMin;
