import { limits, type Place } from '@sitelog/shared';
import type { FastifyBaseLogger } from 'fastify';
import {
  BUCKET_PREFIX,
  loadGazetteer,
  normalizePlaceText,
  rangeOf,
  type Gazetteer,
} from './places.gazetteer.js';

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
 * Does the qualifier start a word of the label after the place's own name, or is it the
 * country code? ("Springfield, IL", "Springfield, united st", "Paris, US")
 */
function labelMatches(g: Gazetteer, id: number, qualifier: string): boolean {
  const label = g.labels[id] ?? '';
  const rest = label.slice((g.names[id] ?? '').length).replaceAll(',', ' ');
  const country = (g.countries[id] ?? '').toLowerCase();
  return qualifier === country || ` ${normalizePlaceText(rest)}`.includes(` ${qualifier}`);
}

/** Places whose name, or a word in it, starts with `name`, best first, narrowed by `qualifier`. */
function findPlaces(g: Gazetteer, rawName: string, rawQualifier: string): number[] {
  const name = normalizePlaceText(rawName);
  const qualifier = normalizePlaceText(rawQualifier.replaceAll(',', ' '));
  if (!name) return [];
  const found: number[] = [];
  const labels = new Set<string>();
  const offer = (id: number) => {
    const label = g.labels[id] ?? '';
    if (labels.has(label) || (qualifier && !labelMatches(g, id, qualifier))) return;
    found.push(id);
    labels.add(label);
  };

  if (name.length < BUCKET_PREFIX) {
    const [start, end] = rangeOf(g.shortPrefixes, name);
    for (let i = start; i < end; i++) offer(g.shortPrefixes.ids[i] ?? 0);
  } else {
    const { keys, ids } = g.buckets;
    const [start, end] = rangeOf(g.buckets, name.slice(0, BUCKET_PREFIX));
    for (let i = start; i < end && found.length < limits.placeSuggestions; i++) {
      if (keys[i]?.startsWith(name)) offer(ids[i] ?? 0);
    }
  }
  return found;
}

/**
 * Suggestions for what the user has typed so far: places whose name, or a word in it, starts
 * with the query, accents and case ignored ("munc" → Munich, "sao p" → São Paulo, "york" → New
 * York City). Alternate names count too ("münchen", "munchen" → Munich) at a tenth of the
 * population, so a place's own name outranks an exonym of a bigger city. Ranked by that
 * population score, one suggestion per label, at most `limits.placeSuggestions`. Text after a
 * comma narrows by region or country, so re-sending a chosen label ("Munich, Germany") finds it.
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
