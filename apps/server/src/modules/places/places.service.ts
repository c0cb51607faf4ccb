import { limits, type Place } from '@sitelog/shared';
import type { FastifyBaseLogger } from 'fastify';
import {
  BUCKET_PREFIX,
  BUCKET_SCAN_MAX,
  loadGazetteer,
  normalizePlaceText,
  rangeOf,
  type Gazetteer,
} from './places.gazetteer.js';
import { matchOf, Ranking } from './places.ranking.js';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const countryNameCache = new Map<string, string>();

/** "DE" → "Germany"; an unknown code stays as it is. */
function countryName(code: string): string {
  let name = countryNameCache.get(code);
  if (name === undefined) {
    try {
      name = countryNames.of(code) ?? code;
    } catch {
      name = code;
    }
    countryNameCache.set(code, name);
  }
  return name;
}

const US_STATE = /^[A-Z]{2}$/;

/**
 * "Munich, Germany", "Springfield, IL, United States". The data carries only codes for regions;
 * US state codes are the postal abbreviations people write, elsewhere they are opaque numbers
 * ("02" for Bavaria), so only US labels name the region.
 */
function placeLabel(city: { name: string; country: string; admin1: string }): string {
  const region = city.country === 'US' && US_STATE.test(city.admin1) ? `${city.admin1}, ` : '';
  return `${city.name}, ${region}${countryName(city.country)}`;
}

let gazetteer: Promise<Gazetteer> | null = null;

/** The gazetteer, loaded on first use and kept; a failed load is retried on the next call. */
function getGazetteer(): Promise<Gazetteer> {
  gazetteer ??= loadGazetteer({ limit: limits.placeSuggestions, labelOf: placeLabel }).catch(
    (err: unknown) => {
      gazetteer = null;
      throw err;
    },
  );
  return gazetteer;
}

/** Starts loading the gazetteer in the background so the first keystroke does not wait for it. */
export function warmPlaces(log: FastifyBaseLogger): void {
  getGazetteer().then(
    (g) => log.info(g.stats, 'place search ready'),
    (err: unknown) => log.error({ err }, 'place search could not load its gazetteer'),
  );
}

function toPlace(g: Gazetteer, id: number): Place {
  return {
    label: g.labels[id] ?? '',
    name: g.names[id] ?? '',
    country: countryName(g.countries[id] ?? ''),
    latitude: g.latitudes[id] ?? null,
    longitude: g.longitudes[id] ?? null,
  };
}

/**
 * Whether a place suits the qualifier: does it start a word of the label after the place's own
 * name, or is it the country code? ("Springfield, IL", "Springfield, united st", "Paris, US")
 * Each label ending is judged once per query.
 */
function qualifierFilter(g: Gazetteer, qualifier: string): (id: number) => boolean {
  if (!qualifier) return () => true;
  const judged = new Int8Array(g.labelEndings.length).fill(-1);
  return (id) => {
    if (qualifier === (g.countries[id] ?? '').toLowerCase()) return true;
    const ending = g.labelEndingOf[id] ?? 0;
    if (judged[ending] === -1) {
      const text = normalizePlaceText((g.labelEndings[ending] ?? '').replaceAll(',', ' '));
      judged[ending] = ` ${text}`.includes(` ${qualifier}`) ? 1 : 0;
    }
    return judged[ending] === 1;
  };
}

/**
 * In a big bucket, a query's range of keys up to this size is ranked by sorting it; a broader
 * one by walking the bucket in score order until enough names are found.
 */
const SORTED_RANGE_MAX = 512;

/** The first position in `byKey[from..to)` whose key is not before the query (`isBefore`). */
function lowerBound(
  g: Gazetteer,
  from: number,
  to: number,
  isBefore: (key: string) => boolean,
): number {
  const { keys, byKey } = g.buckets;
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isBefore(keys[byKey[mid] ?? 0] ?? '')) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Places matching `name`, best first, narrowed by `qualifier`: whole names (own or alternate)
 * equal to it, then names starting with it, then places with a later word starting with it;
 * within each, by score (population; a tenth of it for alternate names).
 */
function findPlaces(g: Gazetteer, rawName: string, rawQualifier: string): number[] {
  const name = normalizePlaceText(rawName);
  const qualifier = normalizePlaceText(rawQualifier.replaceAll(',', ' '));
  if (!name) return [];
  const limit = limits.placeSuggestions;
  const accepts = qualifierFilter(g, qualifier);

  if (name.length < BUCKET_PREFIX) {
    // Precomputed, already ranked and one per label.
    const [start, end] = rangeOf(g.shortPrefixes, name);
    return [...g.shortPrefixes.ids.subarray(start, end)].filter(accepts);
  }

  const { keys, ids, kinds, byKey } = g.buckets;
  const ranking = new Ranking(g.labels, limit);
  const offer = (at: number) => {
    const id = ids[at] ?? 0;
    const match = matchOf(kinds[at] ?? 0, keys[at] ?? '', name);
    if (ranking.wants(match) && accepts(id)) ranking.offer(id, match, at);
  };
  const [start, end] = rangeOf(g.buckets, name.slice(0, BUCKET_PREFIX));
  if (end - start <= BUCKET_SCAN_MAX) {
    for (let at = start; at < end; at++) if (keys[at]?.startsWith(name)) offer(at);
    return ranking.ranked();
  }
  const first = lowerBound(g, start, end, (key) => key < name);
  const last = lowerBound(g, first, end, (key) => key.startsWith(name));
  if (last - first <= SORTED_RANGE_MAX) {
    // Few matches: take them all, in score order.
    for (const at of byKey.slice(first, last).sort()) offer(at);
  } else {
    // Many: the keys equal to the query lead the range (in score order); the rest are found
    // walking the bucket by score, until the names starting with the query alone fill the list.
    for (let i = first; i < last && keys[byKey[i] ?? 0] === name; i++) offer(byKey[i] ?? 0);
    for (let at = start; at < end && !ranking.complete; at++) {
      const key = keys[at] ?? '';
      if (key.length !== name.length && key.startsWith(name)) offer(at);
    }
  }
  return ranking.ranked();
}

/**
 * Suggestions for what the user has typed so far: places whose name, or a later word in it,
 * starts with the query, accents and case ignored ("munc" → Munich, "sao p" → São Paulo, "new
 * y" → New York City). A place named exactly as typed comes first ("bern" → Bern before San
 * Bernardino, "bath" → Bath before Bathinda), then names starting with the query, then places
 * with a later word starting with it ("york city" → New York City); within each, by population.
 * Alternate names count too ("münchen", "munchen" → Munich) at a tenth of the population, so a
 * place's own name outranks an exonym of a bigger city. One suggestion per label, at most
 * `limits.placeSuggestions`. Text after a comma narrows by region or country, so re-sending a
 * chosen label ("Munich, Germany") finds it.
 */
export async function searchPlaces(query: string): Promise<Place[]> {
  if (!normalizePlaceText(query.replaceAll(',', ' '))) return [];
  const g = await getGazetteer();
  // A name may hold a comma itself ("Washington, D.C."): try each comma as the split.
  for (let comma = query.indexOf(','); comma !== -1; comma = query.indexOf(',', comma + 1)) {
    const found = findPlaces(g, query.slice(0, comma), query.slice(comma + 1));
    if (found.length > 0) return found.map((id) => toPlace(g, id));
  }
  return findPlaces(g, query, '').map((id) => toPlace(g, id));
}
