import type { NearestPlace, Place } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext();
  token = (await signedInUser(ctx)).token;
  // The first search loads the gazetteer (seconds on a busy machine): do it under the hook's
  // longer timeout rather than inside the first test.
  await search('a');
});

afterAll(async () => {
  await ctx.close();
});

async function search(query: string): Promise<Place[]> {
  const res = await api(ctx, { method: 'GET', url: '/api/places', query: { query }, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function labels(query: string): Promise<string[]> {
  return (await search(query)).map((p) => p.label);
}

/**
 * The ranking table: a query and the place it must suggest first. Exact names come first, then
 * names starting with the query, then names with a later word starting with it; by population
 * within each, alternate names at a tenth of it.
 */
const FIRST_SUGGESTION: [query: string, first: string, why: string][] = [
  ['Bern', 'Bern, Switzerland', 'its exact name, before San Bernardino and São Bernardo do Campo'],
  ['bern', 'Bern, Switzerland', 'case ignored'],
  ['Paris', 'Paris, France', 'exact names by population: Paris, TX follows'],
  ['San', 'San Diego, CA, United States', '"SAN" is its alternate name; a tenth of it > San, Mali'],
  ['München', 'Munich, Germany', 'an alternate name'],
  ['munchen', 'Munich, Germany', 'accents ignored'],
  ['sao p', 'São Paulo, Brazil', 'a prefix of two words'],
  ['york', 'York, United Kingdom', 'the exact name, before New York City (a later word)'],
  ['Springfield, IL', 'Springfield, IL, United States', 'the region after the comma'],
  ['s', 'Shanghai, China', 'one letter: the biggest place'],
  ['sa', 'São Paulo, Brazil', 'two letters'],
  ['mu', 'Mumbai, India', 'two letters'],
  ['bo', 'Bo, Sierra Leone', 'a two-letter exact name, before Bogotá'],
  ['ber', 'Berlin, Germany', 'three letters'],
  ['bath', 'Bath, United Kingdom', 'an exact small town (95,000) before Bathinda (285,000)'],
  ['vic', 'Vic, Spain', 'an exact town of 40,000 before Victoria and Vicenza'],
  ['zug', 'Zug, Switzerland', 'an exact town of 30,000 before Zugdidi'],
  ['cologne', 'Köln, Germany', 'an exonym of a city over ten times bigger than Cologne, Italy'],
  ['roma', 'Rome, Italy', 'an exonym of a city over ten times bigger than Roma, TX'],
  ['wien', 'Vienna, Austria', 'an exonym, before Wiener Neustadt'],
  ['pra', 'Prague, Czechia', 'a prefix, though "PRA" is the exact code of Paraná'],
  ['los', 'Los Angeles, CA, United States', 'a prefix, though "LOS" is the exact code of Lagos'],
  ['new y', 'New York City, NY, United States', 'a prefix'],
  ['york city', 'New York City, NY, United States', 'a later word, when nothing else matches'],
  ['Bern, Switzerland', 'Bern, Switzerland', 'a chosen label finds itself'],
];

describe('place search ranking', () => {
  it.each(FIRST_SUGGESTION)('"%s" suggests %s first (%s)', async (query, first) => {
    expect((await labels(query))[0]).toBe(first);
  });

  it('ranks Paris, France before Paris, Texas', async () => {
    const paris = await labels('Paris');
    expect(paris.indexOf('Paris, France')).toBeLessThan(paris.indexOf('Paris, TX, United States'));
  });

  it('answers "San" with large cities', async () => {
    const san = await labels('San');
    for (const city of [
      'Santiago, Chile',
      'Santo Domingo, Dominican Republic',
      'San Antonio, TX, United States',
      'San, Mali',
    ])
      expect(san).toContain(city);
    expect(san).not.toContain('San Bernardino, CA, United States');
  });

  it('puts every place named exactly so before a bigger city whose name only starts so', async () => {
    const bath = await labels('bath');
    expect(bath.indexOf('Bath, ME, United States')).toBeLessThan(bath.indexOf('Bathinda, India'));
    // An alternate name equal to the query ("York" of Warner Robins, GA) does not push a place
    // of that very name aside.
    expect((await labels('york')).slice(0, 6).every((label) => label.startsWith('York, '))).toBe(
      true,
    );
  });
});

describe('GET /api/places', () => {
  it('refuses signed-out users', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/places', query: { query: 'munc' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('finds Munich from the first letters of its name, with label and coordinates', async () => {
    const [first, ...rest] = await search('munc');
    expect(first).toEqual({
      label: 'Munich, Germany',
      name: 'Munich',
      country: 'Germany',
      latitude: expect.closeTo(48.137, 2) as number,
      longitude: expect.closeTo(11.575, 2) as number,
    });
    // Smaller places follow: Muncie, and the towns "bei München".
    expect(rest.map((p) => p.label)).toContain('Muncie, IN, United States');
  });

  it('finds Munich by its German name, with or without the umlaut, in any case', async () => {
    for (const query of ['münchen', 'munchen', 'MÜNCHEN', 'Mu\u0308nchen', 'muenchen', 'munich']) {
      expect((await labels(query))[0], query).toBe('Munich, Germany');
    }
  });

  it('matches a later word of a name: "new y" and "york" find New York City', async () => {
    expect((await labels('new y'))[0]).toBe('New York City, NY, United States');
    expect(await labels('york')).toContain('New York City, NY, United States');
    expect(await labels('york')).toContain('York, United Kingdom');
  });

  it('ignores accents in both directions: "sao paulo" and "São Paulo"', async () => {
    expect((await labels('sao paulo'))[0]).toBe('São Paulo, Brazil');
    expect((await labels('São Paulo'))[0]).toBe('São Paulo, Brazil');
    expect((await labels('lodz'))[0]).toBe('Łódź, Poland');
    expect((await labels('saint etienne'))[0]).toBe('Saint-Étienne, France');
  });

  it('ranks places of the same name by population', async () => {
    // GeoNames populations: Springfield MO 166,810 > MA 154,341 > IL 116,565 > OR 59,403.
    expect((await labels('springfield')).slice(0, 4)).toEqual([
      'Springfield, MO, United States',
      'Springfield, MA, United States',
      'Springfield, IL, United States',
      'Springfield, OR, United States',
    ]);
    const london = await labels('london');
    expect(london.slice(0, 2)).toEqual(['London, United Kingdom', 'London, Canada']);
    // A later word ("New London") ranks after every name that starts with the query.
    expect(london).not.toContain('New London, CT, United States');
    expect(await labels('london, ct')).toEqual(['New London, CT, United States']);
  });

  it('finds places by alternate names, ranked by a tenth of their population', async () => {
    // Köln is "Cologne" in English; the Italian town of that name is far smaller.
    expect(await labels('cologne')).toEqual([
      'Köln, Germany',
      'Cologne, Italy',
      'Cologne, MN, United States',
    ]);
    // Bigger cities have alternate names starting the same way (Phoenix, 1.6 M: "Mill City");
    // a city's own name still wins when it is at least a tenth of their size.
    expect((await labels('mil'))[0]).toBe('Milan, Italy');
    expect((await labels('lis'))[0]).toBe('Lisbon, Portugal');
    expect((await labels('pra'))[0]).toBe('Prague, Czechia');
  });

  it('gives at most 10 distinct suggestions, however broad the query', async () => {
    for (const query of ['s', 'a', 'sa', 'san']) {
      const found = await labels(query);
      expect(found, query).toHaveLength(10);
      expect(new Set(found).size, query).toBe(10);
    }
    expect((await labels('s'))[0]).toBe('Shanghai, China');
  });

  it('narrows by region or country after a comma, so a chosen label finds itself again', async () => {
    expect((await labels('Springfield, IL'))[0]).toBe('Springfield, IL, United States');
    expect(await labels('Munich, Germany')).toEqual(['Munich, Germany']);
    expect((await labels('paris, us'))[0]).toBe('Paris, TX, United States');
    expect(await labels('paris, nowhere')).toEqual([]);
    // The place's own name holds a comma.
    expect((await labels('Washington, D.C., DC, United States'))[0]).toBe(
      'Washington, D.C., DC, United States',
    );
    expect((await labels('washington, d'))[0]).toBe('Washington, D.C., DC, United States');
  });

  it('answers an empty or blank query with no suggestions', async () => {
    expect(await labels('')).toEqual([]);
    expect(await labels('   ')).toEqual([]);
    const res = await api(ctx, { method: 'GET', url: '/api/places', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('refuses an over-long query with a clear message', async () => {
    expect(await search('a'.repeat(100))).toEqual([]);
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/places',
      query: { query: 'a'.repeat(101) },
      token,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'query must be at most 100 characters.' });
  });

  it('refuses a repeated query parameter with a 400', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/places?query=a&query=b', token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'query must be text.' });
  });

  it('never fails on odd input: symbols, SQL, control characters, other scripts, emoji', async () => {
    const odd = [
      '%',
      '%%%',
      '_',
      '*',
      '\\',
      "'; DROP TABLE projects; --",
      "' OR 1=1 --",
      '((((',
      '<script>alert(1)</script>',
      '\u0000',
      '\u200b\u200b',
      '💥💥💥',
      ',',
      ',,,,',
      '- - -',
      'a'.repeat(99) + '\u0301',
      '\ud800',
    ];
    for (const query of odd) {
      const res = await api(ctx, { method: 'GET', url: '/api/places', query: { query }, token });
      expect(res.statusCode, JSON.stringify(query)).toBe(200);
      expect(Array.isArray(res.json()), JSON.stringify(query)).toBe(true);
    }
    expect((await labels('москва'))[0]).toBe('Moscow, Russia');
    expect((await labels('北京'))[0]).toBe('Beijing, China');
  });
});

describe('GET /api/places/nearest', () => {
  async function nearest(query: Record<string, string>) {
    return api(ctx, { method: 'GET', url: '/api/places/nearest', query, token });
  }

  it('refuses signed-out users', async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/places/nearest',
      query: { latitude: '46.948', longitude: '7.447' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('names the place a point is in, with its distance in km', async () => {
    // Bern's Zytglogge, a few dozen metres from the point GeoNames gives for Bern.
    const res = await nearest({ latitude: '46.94797', longitude: '7.44795' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<NearestPlace>();
    expect(body.place).toMatchObject({ label: 'Bern, Switzerland', name: 'Bern' });
    expect(body.distanceKm).toBeLessThan(5);
    // Rounded to 100 m.
    expect(body.distanceKm).toBe(Math.round((body.distanceKm ?? 0) * 10) / 10);

    const munich = (await nearest({ latitude: '48.1372', longitude: '11.5756' })).json();
    expect(munich).toMatchObject({ place: { label: 'Munich, Germany' } });
  });

  it('measures the distance along the globe, to 100 m', async () => {
    // 0.01° of latitude north of Bern's point is 1.11 km; Zollikofen, the next town, is 4 km off.
    const res = await nearest({ latitude: '46.95809', longitude: '7.44744' });
    expect(res.json()).toMatchObject({ place: { label: 'Bern, Switzerland' }, distanceKm: 1.1 });
  });

  it('answers null for a point with no place within 50 km (the mid-Atlantic, the poles)', async () => {
    for (const [latitude, longitude] of [
      ['30', '-40'],
      ['90', '0'],
      ['-90', '180'],
      ['0', '-180'],
    ] as const) {
      const res = await nearest({ latitude, longitude });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ place: null, distanceKm: null });
    }
  });

  it('finds a place across the antimeridian', async () => {
    // Egvekinot, Chukotka, is at 179.12° W; from 179.95° E it is 0.93° of longitude at 66° N.
    const res = await nearest({ latitude: '66.32166', longitude: '179.95' });
    expect(res.json()).toMatchObject({ place: { name: 'Egvekinot' }, distanceKm: 41.4 });
  });

  it('refuses missing, non-numeric and out-of-range coordinates with a clear message', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ longitude: '7.4' }, 'latitude is required.'],
      [{ latitude: '46.9' }, 'longitude is required.'],
      [{ latitude: '', longitude: '7.4' }, 'latitude is required.'],
      [{ latitude: 'north', longitude: '7.4' }, 'latitude must be a number.'],
      [{ latitude: '1e1', longitude: '7.4' }, 'latitude must be a number.'],
      [{ latitude: 'Infinity', longitude: '7.4' }, 'latitude must be a number.'],
      [{ latitude: '46.9', longitude: '0x10' }, 'longitude must be a number.'],
      [{ latitude: '90.5', longitude: '7.4' }, 'latitude must be between -90 and 90.'],
      [{ latitude: '46.9', longitude: '-180.01' }, 'longitude must be between -180 and 180.'],
    ];
    for (const [query, message] of cases) {
      const res = await nearest(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json(), JSON.stringify(query)).toMatchObject({
        code: 'validation_failed',
        message,
      });
    }
    const repeated = await api(ctx, {
      method: 'GET',
      url: '/api/places/nearest?latitude=1&latitude=2&longitude=3',
      token,
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toMatchObject({ message: 'latitude must be a number.' });
  });
});
