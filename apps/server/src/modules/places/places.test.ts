import type { NearestPlace, Place, Project } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProject } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { fillMissingCoordinates } from '../projects/projects.service.js';
import { backfillProjectCoordinates, startCoordinateBackfill } from './places.service.js';

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

describe('project coordinates backfill', () => {
  const BERN = { latitude: 46.94809, longitude: 7.44744 };
  const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

  async function project(id: number): Promise<Project> {
    const res = await api(ctx, { method: 'GET', url: `/api/project/id/${id}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('gives projects without coordinates those of the place their location names', async () => {
    const createdAt = anHourAgo();
    const bern = await buildProject(ctx, { location: 'Bern, Switzerland', createdAt });
    const placed = await buildProject(ctx, {
      location: 'Bern, Switzerland',
      latitude: 47.0,
      longitude: 7.0,
      createdAt,
    });
    const nowhere = await buildProject(ctx, { location: 'Nowhereville 123', createdAt });
    // Not a label: the name before the comma, accents and case ignored; the region narrows.
    const zurich = await buildProject(ctx, { location: 'zurich, Kanton Zürich', createdAt });
    const springfield = await buildProject(ctx, { location: 'Springfield, IL', createdAt });
    const before = await project(bern.id);

    const first = await backfillProjectCoordinates({ db: ctx.db });
    expect(first.filled).toBeGreaterThanOrEqual(3);

    const filled = await project(bern.id);
    expect(filled).toMatchObject({
      latitude: expect.closeTo(BERN.latitude, 4) as number,
      longitude: expect.closeTo(BERN.longitude, 4) as number,
    });
    // A backfill is not an edit.
    expect(filled.updatedAt).toBe(before.updatedAt);
    expect(filled.uploadsCount).toBe(before.uploadsCount);
    expect(await project(placed.id)).toMatchObject({ latitude: 47.0, longitude: 7.0 });
    expect(await project(nowhere.id)).toMatchObject({ latitude: null, longitude: null });
    expect(await project(zurich.id)).toMatchObject({
      latitude: expect.closeTo(47.37, 1) as number,
      longitude: expect.closeTo(8.54, 1) as number,
    });
    // Springfield, Illinois (39.80° N, 89.64° W), not the bigger one in Missouri.
    expect(await project(springfield.id)).toMatchObject({
      latitude: expect.closeTo(39.8, 1) as number,
      longitude: expect.closeTo(-89.64, 1) as number,
    });

    // Idempotent: a second run finds nothing more to fill.
    expect((await backfillProjectCoordinates({ db: ctx.db })).filled).toBe(0);
    expect(await project(bern.id)).toEqual(filled);
  });

  it('leaves projects made after it started to their creators', async () => {
    const startedAt = anHourAgo();
    const later = await buildProject(ctx, { location: 'Bern, Switzerland' });
    const counts = await backfillProjectCoordinates({ db: ctx.db }, { createdBefore: startedAt });
    expect(counts.filled).toBe(0);
    expect(await project(later.id)).toMatchObject({ latitude: null, longitude: null });
  });

  it('fills each project once when two instances run it at the same time', async () => {
    const createdAt = anHourAgo();
    const ids = [];
    for (let i = 0; i < 12; i++)
      ids.push((await buildProject(ctx, { location: 'Bern, Switzerland', createdAt })).id);
    const withoutCoordinates = async () =>
      (
        await ctx.db
          .selectFrom('projects')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('latitude', 'is', null)
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await withoutCoordinates());
    const runs = await Promise.all([
      backfillProjectCoordinates({ db: ctx.db }, { batchSize: 5 }),
      backfillProjectCoordinates({ db: ctx.db }, { batchSize: 5 }),
    ]);
    // Each project filled counts in one run only.
    const filled = before - Number(await withoutCoordinates());
    expect(filled).toBeGreaterThanOrEqual(ids.length);
    expect(runs[0].filled + runs[1].filled).toBe(filled);
    for (const id of ids)
      expect(await project(id)).toMatchObject({
        latitude: expect.closeTo(BERN.latitude, 4) as number,
      });
  });

  it('keeps an edit made while the batch was being located', async () => {
    const creator = await signedInUser(ctx);
    const location = `Bern, race ${Date.now()}`;
    const { id } = await buildProject(ctx, {
      location,
      createdAt: anHourAgo(),
      creatorId: creator.id,
    });
    const counts = await fillMissingCoordinates(
      ctx,
      async (text) => {
        if (text !== location) return null;
        // The creator moves the project between the lookup and the write.
        const edit = await api(ctx, {
          method: 'PATCH',
          url: `/api/project/update/${id}`,
          payload: { project: { name: 'Moved', location: 'Nowhereville 123' } },
          token: creator.token,
        });
        expect(edit.statusCode, edit.body).toBe(200);
        return BERN;
      },
      { createdBefore: new Date().toISOString() },
    );
    expect(counts.filled).toBe(0);
    expect(await project(id)).toMatchObject({
      location: 'Nowhereville 123',
      latitude: null,
      longitude: null,
    });
  });

  it('runs in the background at start and logs how many it filled', async () => {
    const { id } = await buildProject(ctx, {
      location: 'Zürich, Switzerland',
      createdAt: anHourAgo(),
    });
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await startCoordinateBackfill({ db: ctx.db }, log).done;
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledWith(
      { checked: expect.any(Number) as number, filled: expect.any(Number) as number },
      'project coordinates backfilled from the gazetteer',
    );
    const [[counts]] = log.info.mock.calls as [[{ checked: number; filled: number }]];
    expect(counts.filled).toBeGreaterThanOrEqual(1);
    expect(counts.checked).toBeGreaterThanOrEqual(counts.filled);
    expect((await project(id)).latitude).toBeCloseTo(47.37, 1);
  });

  it('runs once: projects made after the feature arrived, or left after a run, are never guessed', async () => {
    // As the migration leaves it: projects created before now await their coordinates.
    const key = 'projects.coordinates_backfill_before';
    await ctx.db.deleteFrom('settings').where('key', '=', key).execute();
    await ctx.db.insertInto('settings').values({ key, value: new Date().toISOString() }).execute();
    const before = await buildProject(ctx, {
      location: 'Bern, Switzerland',
      createdAt: anHourAgo(),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Made after the cutoff: its creator chose to leave it without a place.
    const later = await buildProject(ctx, { location: 'Bern, Switzerland' });
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await startCoordinateBackfill({ db: ctx.db }, log).done;
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledTimes(1);
    expect((await project(before.id)).latitude).toBeCloseTo(46.95, 1);
    expect(await project(later.id)).toMatchObject({ latitude: null, longitude: null });
    expect(
      await ctx.db.selectFrom('settings').select('key').where('key', '=', key).execute(),
    ).toEqual([]);

    // Once a run went through, a later start does nothing, even for an old project.
    const old = await buildProject(ctx, { location: 'Bern, Switzerland', createdAt: anHourAgo() });
    const again = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    await startCoordinateBackfill({ db: ctx.db }, again).done;
    expect(again.info).not.toHaveBeenCalled();
    expect(again.error).not.toHaveBeenCalled();
    expect(await project(old.id)).toMatchObject({ latitude: null, longitude: null });
  });
});
