import { limits, type NearestPlace, type Place } from '@sitelog/shared';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, outageReason } from '../../db/database-errors.js';
import { nowIso, type Database } from '../../db/database.js';
import { loadOnce } from '../../load-once.js';
import {
  coordinateBackfillCutoff,
  fillMissingCoordinates,
  finishCoordinateBackfill,
} from '../projects/projects.service.js';
import {
  BUCKET_PREFIX,
  BUCKET_SCAN_MAX,
  GRID,
  gridCell,
  gridPosition,
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

/** The gazetteer, loaded on first use and kept; a failed load is retried on the next call. */
const getGazetteer = loadOnce(() =>
  loadGazetteer({ limit: limits.placeSuggestions, labelOf: placeLabel }),
);

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

/**
 * How far the nearest place may be for its name to say where a point is: cities1000 covers
 * every town of 1,000 people, so in settled land one is within a few km; beyond this a point
 * is at sea, in a desert or in the mountains, and "near Bern" would mislead.
 */
export const NEAREST_PLACE_MAX_KM = 50;
const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;
const RADIANS = Math.PI / 180;

/** Great-circle distance in km (haversine). */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The nearest place within `maxKm`, from the grid cells a circle of that radius can touch (up
 * to a dozen cells, a few thousand places in the densest regions); the bigger place on a tie.
 * Candidates are compared by the equirectangular approximation (a few multiplications; off by
 * well under 1 % at these distances), the winner measured by haversine.
 */
function nearestPlace(
  g: Gazetteer,
  latitude: number,
  longitude: number,
  maxKm: number,
): { id: number; km: number } | null {
  const latitudeSpan = maxKm / KM_PER_DEGREE;
  // Longitude degrees shrink towards the poles: the span is widest at the circle's edge nearest
  // a pole. Near a pole, every column.
  const widest = Math.min(90, Math.abs(latitude) + latitudeSpan);
  const cos = Math.cos(widest * RADIANS);
  const longitudeSpan = cos > 1e-6 ? latitudeSpan / cos : 360;
  const [southRow, westColumn] = gridPosition(latitude - latitudeSpan, longitude - longitudeSpan);
  const [northRow, eastColumn] = gridPosition(latitude + latitudeSpan, longitude + longitudeSpan);
  const columns = Math.min(GRID.columns, eastColumn - westColumn + 1);

  const xScale = Math.cos(latitude * RADIANS);
  // Squared, in degrees of latitude; a little slack for the approximation.
  const reach = (latitudeSpan * 1.01) ** 2;
  let bestId = -1;
  let bestSquared = Infinity;
  for (let row = Math.max(0, southRow); row <= Math.min(GRID.rows - 1, northRow); row++) {
    for (let c = 0; c < columns; c++) {
      const cell = gridCell(row, westColumn + c);
      const end = g.grid.starts[cell + 1] ?? 0;
      for (let i = g.grid.starts[cell] ?? 0; i < end; i++) {
        const id = g.grid.ids[i] ?? 0;
        const y = (g.latitudes[id] ?? 0) - latitude;
        let dLon = Math.abs((g.longitudes[id] ?? 0) - longitude);
        if (dLon > 180) dLon = 360 - dLon;
        const x = dLon * xScale;
        const squared = x * x + y * y;
        if (squared < bestSquared || (squared === bestSquared && id < bestId)) {
          bestSquared = squared;
          bestId = id;
        }
      }
    }
  }
  if (bestId === -1 || bestSquared > reach) return null;
  const km = distanceKm(latitude, longitude, g.latitudes[bestId] ?? 0, g.longitudes[bestId] ?? 0);
  return km <= maxKm ? { id: bestId, km } : null;
}

/**
 * The gazetteer's nearest place to a point (latitude and longitude in degrees), with its
 * distance in km to one decimal; both null when none is within `NEAREST_PLACE_MAX_KM`. Only
 * the cells of a grid built once at load are searched, never the whole gazetteer.
 */
export async function findNearestPlace(latitude: number, longitude: number): Promise<NearestPlace> {
  const g = await getGazetteer();
  const nearest = nearestPlace(g, latitude, longitude, NEAREST_PLACE_MAX_KM);
  if (!nearest) return { place: null, distanceKm: null };
  return { place: toPlace(g, nearest.id), distanceKm: Math.round(nearest.km * 10) / 10 };
}

/**
 * The place a project's location text names: the place whose label it is exactly ("Munich,
 * Germany"), or else the first suggestion whose own name is the text before the first comma,
 * case and accents ignored ("munich, bavaria" → Munich; "Springfield, IL" → the Illinois one,
 * as the search narrows by what follows the comma where it can). Null when none is.
 */
export async function placeOfLocation(location: string): Promise<Place | null> {
  const text = location.trim();
  const suggestions = await searchPlaces(text);
  const labelled = suggestions.find((place) => place.label === text);
  if (labelled) return labelled;
  const head = text.split(',', 1)[0] ?? '';
  const name = normalizePlaceText(head);
  if (!name) return null;
  const named = (places: Place[]) => places.find((p) => normalizePlaceText(p.name) === name);
  return named(suggestions) ?? (head === text ? null : (named(await searchPlaces(head)) ?? null));
}

/**
 * The one-time backfill of project coordinates: every project created before `createdBefore`
 * (default: now) that has none gets those of the place its location names (`placeOfLocation`),
 * through the projects service, which fills only what is still empty. Each distinct location
 * is looked up once.
 */
export async function backfillProjectCoordinates(
  deps: { db: Database },
  options: { createdBefore?: string; stopped?: () => boolean; batchSize?: number } = {},
): Promise<{ checked: number; filled: number }> {
  const { createdBefore = nowIso(), ...batches } = options;
  await getGazetteer();
  const found = new Map<string, { latitude: number; longitude: number } | null>();
  const locate = async (location: string) => {
    if (!found.has(location)) {
      const place = await placeOfLocation(location);
      found.set(
        location,
        place?.latitude != null && place.longitude != null
          ? { latitude: place.latitude, longitude: place.longitude }
          : null,
      );
    }
    return found.get(location) ?? null;
  };
  return fillMissingCoordinates(deps, locate, { ...batches, createdBefore });
}

/** How long the backfill waits before asking a database it could not reach again. */
const BACKFILL_RETRY_MS = 60_000;

/**
 * Runs the one-time backfill in the background once the gazetteer has loaded: over the projects
 * created before the migration that introduced it (the cutoff it left in `settings`), and, when
 * it went through all of them, records that it is done, so no later start guesses a place for a
 * project its creator left without one. Logs how many it filled. Two instances starting at once
 * may both run it; filling only what is empty, they change each project once. A database that
 * cannot be reached (down, restarting) is asked again every `retryMs` (a warning each time);
 * any other failure is logged and left for the next start. `stop` ends it between batches and
 * waits for a batch in flight (on close, before the database goes); stopped while the gazetteer
 * loads or while waiting to try again, it never starts.
 */
export function startCoordinateBackfill(
  deps: { db: Database },
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  options: { retryMs?: number } = {},
): { done: Promise<void>; stop: () => Promise<void> } {
  const { retryMs = BACKFILL_RETRY_MS } = options;
  let stopped = false;
  let started = false;
  // Ends the wait before the next try at once, when stopped.
  const waiting: { wake: (() => void) | null } = { wake: null };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      waiting.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function run(): Promise<void> {
    // Asked first, so a database whose backfill is done never waits for the gazetteer.
    const createdBefore = await coordinateBackfillCutoff(deps);
    if (createdBefore === null) return;
    await getGazetteer();
    if (stopped) return;
    started = true;
    const counts = await backfillProjectCoordinates(deps, {
      createdBefore,
      stopped: () => stopped,
    });
    if (!stopped) await finishCoordinateBackfill(deps);
    log.info(counts, 'project coordinates backfilled from the gazetteer');
  }

  const done = (async () => {
    while (!stopped) {
      try {
        await run();
        return;
      } catch (err) {
        if (stopped) return;
        if (!isDatabaseUnavailable(err)) {
          log.error({ err }, 'project coordinate backfill failed');
          return;
        }
        started = false;
        log.warn(
          { reason: outageReason(err) },
          'project coordinate backfill: the database cannot be reached; trying again later',
        );
        await pause(retryMs);
      }
    }
  })();
  return {
    done,
    stop: async () => {
      stopped = true;
      waiting.wake?.();
      if (started) await done;
    },
  };
}
