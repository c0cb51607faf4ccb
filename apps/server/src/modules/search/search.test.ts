// GET /api/search on a small workspace whose every word is known: the search table (accents,
// prefixes, several words, operators, hostile strings → exact ids in order), the index kept in
// step with every write, the upload filters, archived projects, keyset pages, bad input, and a
// fuzz of 1,000 random queries. Runs on SQLite and PostgreSQL.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '@sitelog/shared';
import {
  archiveProject,
  buildProject,
  buildUpload,
  buildUser,
  type TestProject,
  type TestUser,
} from '../../../test/factories.js';
import { api, createTestContext, login, type TestContext } from '../../../test/helpers.js';
import { photoJpeg } from '../../../test/images.js';
import { RANKED_MATCHES } from './search.repository.js';

let ctx: TestContext;
let token: string;

const at = (day: number) => new Date(Date.UTC(2026, 2, day, 12)).toISOString();

let aisha: TestUser;
let marek: TestUser;
let zoe: TestUser;
let dimitar: TestUser;
let hanok: TestProject;
let riverside: TestProject;
let cafe: TestProject;
let yard: TestProject;
const u: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  aisha = await buildUser(ctx, { firstname: 'Aisha', lastname: 'Müller' });
  marek = await buildUser(ctx, { firstname: 'Marek', lastname: 'Nowak' });
  zoe = await buildUser(ctx, { firstname: 'Zoë', lastname: 'Castañeda' });
  dimitar = await buildUser(ctx, { firstname: 'Dimitar', lastname: 'Йорданов' });
  token = await login(ctx, aisha);
  riverside = await buildProject(ctx, {
    creatorId: aisha.id,
    name: 'Riverside Block C',
    location: 'Zürich, Switzerland',
    description: 'Concrete frame, rebar inspection weekly',
    createdAt: at(1),
  });
  cafe = await buildProject(ctx, {
    creatorId: aisha.id,
    name: 'Harbour Café Renovation',
    location: 'Genève',
    description: 'Interior fit-out',
    createdAt: at(2),
  });
  yard = await buildProject(ctx, {
    creatorId: zoe.id,
    name: 'Rebar Yard',
    location: 'Basel',
    createdAt: at(3),
  });
  hanok = await buildProject(ctx, {
    creatorId: dimitar.id,
    name: 'Hanok Gallery',
    location: '서울, 대한민국',
    description: 'がっこう の 改修',
    createdAt: at(3),
  });
  const add = async (key: string, o: Parameters<typeof buildUpload>[1]) => {
    u[key] = await buildUpload(ctx, o);
  };
  await add('c4', {
    projectId: riverside.id,
    creatorId: aisha.id,
    name: 'C4 rebar before pour',
    description: 'Level 3 column',
    createdAt: at(4),
  });
  await add('crack', {
    projectId: riverside.id,
    creatorId: marek.id,
    name: 'Crack at left',
    description: 'see the crack near the rebar cage',
    createdAt: at(5),
  });
  await add('counter', {
    projectId: cafe.id,
    creatorId: zoe.id,
    name: 'Café counter',
    description: 'Béton ciré finish',
    createdAt: at(6),
  });
  await add('delivery', {
    projectId: yard.id,
    creatorId: marek.id,
    name: 'Delivery',
    createdAt: at(7),
    // No EXIF: no capture time.
    file: await photoJpeg(64, 48),
  });
  await add('hostile', {
    projectId: cafe.id,
    creatorId: zoe.id,
    name: `"NEAR" * -crack OR 'x'; DROP TABLE uploads;--`,
    description: '<img src=x onerror=alert(1)>',
    createdAt: at(8),
  });
});
afterAll(async () => ctx.close());

async function search(params: Record<string, string>, as = token) {
  const res = await api(ctx, {
    method: 'GET',
    url: `/api/search?${new URLSearchParams(params).toString()}`,
    token: as,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SearchResponse>();
}

const ids = (section?: { items: { id: number }[] }) => section?.items.map((i) => i.id);

describe('the search table', () => {
  // [query, section, expected ids in order] — a function, since ids exist only after beforeAll.
  const table: [string, 'projects' | 'uploads' | 'people', () => number[]][] = [
    // words, prefixes, case and accents
    ['rebar', 'projects', () => [yard.id, riverside.id]],
    ['reba', 'projects', () => [yard.id, riverside.id]],
    ['REBAR', 'projects', () => [yard.id, riverside.id]],
    ['cafe', 'projects', () => [cafe.id]],
    ['CAFÉ', 'projects', () => [cafe.id]],
    ['zurich', 'projects', () => [riverside.id]],
    ['Zür', 'projects', () => [riverside.id]],
    ['geneve', 'projects', () => [cafe.id]],
    ['beton', 'uploads', () => [u.counter!]],
    ['béton ciré', 'uploads', () => [u.counter!]],
    ['muller', 'people', () => [aisha.id]],
    ['mül', 'people', () => [aisha.id]],
    ['zoe castaneda', 'people', () => [zoe.id]],
    // other scripts, typed as written: kept whole, not broken into parts
    ['Йорданов', 'people', () => [dimitar.id]],
    ['йор', 'people', () => [dimitar.id]],
    ['서울', 'projects', () => [hanok.id]],
    ['がっこう', 'projects', () => [hanok.id]],
    // several words: every one must match, in any field; the name ranks above the rest
    ['crack left', 'uploads', () => [u.crack!]],
    ['rebar crack', 'uploads', () => [u.crack!]],
    ['riverside rebar', 'uploads', () => [u.c4!, u.crack!]],
    ['level 3', 'uploads', () => [u.c4!]],
    ['c4', 'uploads', () => [u.c4!]],
    ['harbour counter', 'uploads', () => [u.counter!]],
    ['rebar yard', 'uploads', () => [u.delivery!]],
    ['nowak delivery', 'uploads', () => [u.delivery!]],
    ['nobody-knows-this', 'uploads', () => []],
    // operators and hostile strings are words, never syntax
    ['"rebar', 'projects', () => [yard.id, riverside.id]],
    ['rebar*', 'projects', () => [yard.id, riverside.id]],
    ['-rebar', 'projects', () => [yard.id, riverside.id]],
    ['rebar NEAR crack', 'uploads', () => [u.crack!]],
    ['NEAR(rebar crack)', 'uploads', () => [u.crack!]],
    ['rebar OR zzzz', 'uploads', () => []],
    ['rebar AND NOT crack', 'uploads', () => []],
    ['title:rebar', 'uploads', () => []],
    ["'; DROP TABLE uploads;--", 'uploads', () => [u.hostile!]],
    ['<img src=x onerror', 'uploads', () => [u.hostile!]],
    ['%_', 'uploads', () => []],
    ['""', 'projects', () => []],
    ['(((', 'projects', () => []],
    ['\\\\', 'uploads', () => []],
  ];

  it.each(table)('%j in %s', async (q, section, expected) => {
    const body = await search({ q, type: section });
    expect(ids(body[section])).toEqual(expected());
  });

  it('answers every section for type=all, and the tables are still there', async () => {
    const body = await search({ q: 'rebar' });
    expect(ids(body.projects)).toEqual([yard.id, riverside.id]);
    expect(new Set(ids(body.uploads))).toEqual(new Set([u.c4, u.crack, u.delivery]));
    expect(ids(body.uploads)?.[0]).toBe(u.c4);
    expect(ids(body.people)).toEqual([]);
    expect(body.projects?.items[0]).toMatchObject({ name: 'Rebar Yard', creator: { id: zoe.id } });
    expect(body.uploads?.items[0]).toMatchObject({ name: 'C4 rebar before pour' });
    expect(body.uploads?.items[0]?.previewLink).toMatch(/^\/media\//);
  });

  it('takes a 1,000-character query as text', async () => {
    const long = 'rebar '.repeat(166).padEnd(1000, 'x');
    expect(long).toHaveLength(1000);
    const body = await search({ q: long });
    expect(body.projects?.items).toEqual([]);
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`)
      .join(' ')
      .slice(0, 1000);
    expect((await search({ q: words })).uploads?.items).toEqual([]);
    const one = 'é'.repeat(1000);
    expect((await search({ q: one })).uploads?.items).toEqual([]);
  });
});

describe('the index follows every write', () => {
  it('finds a new project, its new name and not its old one, and a deleted upload no more', async () => {
    const owner = await buildUser(ctx, { firstname: 'Ingrid', lastname: 'Halvorsen' });
    const ownerToken = await login(ctx, owner);
    const created = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: ownerToken,
      payload: { project: { name: 'Quayside Pavilion', location: 'Oslo' } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ id: number }>().id;
    expect(ids((await search({ q: 'quaysi', type: 'projects' })).projects)).toEqual([id]);
    const photo = await buildUpload(ctx, {
      projectId: id,
      creatorId: owner.id,
      name: 'Glulam beam',
    });
    expect(ids((await search({ q: 'quayside glulam', type: 'uploads' })).uploads)).toEqual([photo]);

    const edited = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${id}`,
      token: ownerToken,
      payload: { project: { name: 'Fjord Pavilion', location: 'Bergen', description: 'timber' } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ids((await search({ q: 'quayside', type: 'all' })).projects)).toEqual([]);
    expect(ids((await search({ q: 'quayside', type: 'uploads' })).uploads)).toEqual([]);
    expect(ids((await search({ q: 'fjord bergen timber', type: 'projects' })).projects)).toEqual([
      id,
    ]);
    // The upload's document carries its project's new name.
    expect(ids((await search({ q: 'fjord glulam', type: 'uploads' })).uploads)).toEqual([photo]);

    const renamed = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${photo}`,
      token: ownerToken,
      payload: { upload: { name: 'Steel beam', description: 'primed' } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(ids((await search({ q: 'glulam', type: 'uploads' })).uploads)).toEqual([]);
    expect(ids((await search({ q: 'steel primed', type: 'uploads' })).uploads)).toEqual([photo]);

    // Moved to another project: found by that project's name.
    const other = await buildProject(ctx, { creatorId: owner.id, name: 'Tramshed Lofts' });
    const moved = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${photo}`,
      token: ownerToken,
      payload: { upload: { projectId: other.id } },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(ids((await search({ q: 'tramshed steel', type: 'uploads' })).uploads)).toEqual([photo]);
    expect(ids((await search({ q: 'fjord steel', type: 'uploads' })).uploads)).toEqual([]);

    const deleted = await api(ctx, {
      method: 'DELETE',
      url: `/api/upload/delete/${photo}`,
      token: ownerToken,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(ids((await search({ q: 'steel', type: 'uploads' })).uploads)).toEqual([]);
  });

  it('finds a new member, and follows a change of name to their uploads', async () => {
    const admin = await buildUser(ctx, { isAdmin: true });
    const made = await api(ctx, {
      method: 'POST',
      url: '/api/user/create',
      token: await login(ctx, admin),
      payload: {
        user: {
          email: 'olusegun@example.com',
          firstname: 'Olúṣẹgun',
          lastname: 'Adébáyọ̀',
          password: 'a long enough password',
        },
      },
    });
    expect(made.statusCode, made.body).toBe(200);
    const person = made.json<{ id: number }>().id;
    expect(ids((await search({ q: 'olusegun adebayo', type: 'people' })).people)).toEqual([person]);
    const photo = await buildUpload(ctx, { creatorId: person, name: 'Scaffold tag' });
    expect(ids((await search({ q: 'adebayo scaffold', type: 'uploads' })).uploads)).toEqual([
      photo,
    ]);

    // No call edits a member's name yet; the database keeps the index in step all the same.
    await ctx.db
      .updateTable('users')
      .set({ lastname: 'Okafor' })
      .where('id', '=', person)
      .execute();
    expect(ids((await search({ q: 'adebayo', type: 'all' })).people)).toEqual([]);
    expect(ids((await search({ q: 'okafor', type: 'people' })).people)).toEqual([person]);
    expect(ids((await search({ q: 'okafor scaffold', type: 'uploads' })).uploads)).toEqual([photo]);
  });

  it('forgets a project and a member removed from the database', async () => {
    // No call deletes projects or members (they are archived and deactivated); the triggers
    // cover a removal all the same, e.g. by a restore or an operator.
    const loner = await buildUser(ctx, { firstname: 'Wendeline', lastname: 'Trubshaw' });
    const empty = await buildProject(ctx, { creatorId: loner.id, name: 'Vanishing Kiosk' });
    expect(ids((await search({ q: 'vanishing kiosk', type: 'projects' })).projects)).toEqual([
      empty.id,
    ]);
    expect(ids((await search({ q: 'trubshaw', type: 'people' })).people)).toEqual([loner.id]);
    await ctx.db.deleteFrom('projects').where('id', '=', empty.id).execute();
    await ctx.db.deleteFrom('sessions').where('user_id', '=', loner.id).execute();
    await ctx.db.deleteFrom('users').where('id', '=', loner.id).execute();
    expect(ids((await search({ q: 'vanishing', type: 'projects' })).projects)).toEqual([]);
    expect(ids((await search({ q: 'trubshaw', type: 'people' })).people)).toEqual([]);
    const left = await ctx.db
      .selectFrom('search_documents')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'project'), eb('ref_id', '=', empty.id)]),
          eb.and([eb('kind', '=', 'person'), eb('ref_id', '=', loner.id)]),
        ]),
      )
      .execute();
    expect(left).toEqual([]);
  });
});

describe('upload filters', () => {
  it('narrows uploads by project, author and days of upload or capture', async () => {
    // "rebar" is in c4's name, crack's description and delivery's project name.
    const q = 'rebar';
    expect(
      ids((await search({ q, type: 'uploads', project: String(riverside.id) })).uploads),
    ).toEqual([u.c4, u.crack]);
    expect(
      ids((await search({ q, type: 'uploads', author: String(marek.id) })).uploads)?.sort(),
    ).toEqual([u.crack, u.delivery].sort());
    expect(
      ids(
        (await search({ q, type: 'uploads', author: String(marek.id), project: String(yard.id) }))
          .uploads,
      ),
    ).toEqual([u.delivery]);
    // Upload days: 4 (c4), 5 (crack), 7 (delivery).
    expect(
      ids(
        (await search({ q, type: 'uploads', from: '2026-03-05', to: '2026-03-07' })).uploads,
      )?.sort(),
    ).toEqual([u.crack, u.delivery].sort());
    expect(ids((await search({ q, type: 'uploads', to: '2026-03-04' })).uploads)).toEqual([u.c4]);
    // Capture time: the factory's photo was taken on 2024-05-05 (UTC); "delivery" has none.
    const captured = await search({
      q,
      type: 'uploads',
      by: 'captured',
      from: '2024-05-05',
      to: '2024-05-05',
    });
    expect(ids(captured.uploads)).toEqual([u.c4, u.crack]);
    expect(
      ids((await search({ q, type: 'uploads', by: 'captured', from: '2026-03-01' })).uploads),
    ).toEqual([]);
  });
});

describe('archived projects', () => {
  it('are left out, with their photos, unless asked for', async () => {
    const owner = await buildUser(ctx);
    const project = await buildProject(ctx, { creatorId: owner.id, name: 'Mothballed Depot' });
    const photo = await buildUpload(ctx, { projectId: project.id, name: 'Padlock' });
    expect(ids((await search({ q: 'mothballed' })).projects)).toEqual([project.id]);
    await archiveProject(ctx, project.id);
    const hidden = await search({ q: 'mothballed' });
    expect(ids(hidden.projects)).toEqual([]);
    expect(ids(hidden.uploads)).toEqual([]);
    const shown = await search({ q: 'mothballed', archived: 'true' });
    expect(ids(shown.projects)).toEqual([project.id]);
    expect(shown.projects?.items[0]?.archivedAt).toEqual(expect.any(String));
    expect(ids(shown.uploads)).toEqual([photo]);
    expect(ids((await search({ q: 'padlock', archived: 'false' })).uploads)).toEqual([]);
  });
});

describe('pages', () => {
  it('walks a section by keyset cursors: every hit once, in order, then next is null', async () => {
    const project = await buildProject(ctx, { name: 'Pagoda' });
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        await buildUpload(ctx, {
          projectId: project.id,
          name: `Lintel ${i}`,
          createdAt: at(10 + i),
        }),
      );
    const whole = await search({ q: 'lintel', type: 'uploads' });
    expect(whole.uploads?.next).toBeNull();
    // Equal relevance: newest first.
    expect(ids(whole.uploads)).toEqual([...made].reverse());

    const seen: number[] = [];
    let before: string | null | undefined;
    let pages = 0;
    do {
      const params: Record<string, string> = { q: 'lintel', type: 'uploads', limit: '3' };
      if (before) params.before = before;
      const page = await search(params);
      seen.push(...(ids(page.uploads) ?? []));
      before = page.uploads?.next;
      pages++;
    } while (before && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids(whole.uploads));

    const first = await search({ q: 'rebar', type: 'projects', limit: '1' });
    expect(ids(first.projects)).toEqual([yard.id]);
    const second = await search({
      q: 'rebar',
      type: 'projects',
      limit: '1',
      before: first.projects?.next ?? '',
    });
    expect(ids(second.projects)).toEqual([riverside.id]);
    expect(second.projects?.next).toBeNull();
  });
});

describe('a word in more than RANKED_MATCHES photos', () => {
  it('ranks the newest 1,000 matches; a filter reaches an older one', async () => {
    const old = await buildProject(ctx, { name: 'Gale House' });
    const busy = await buildProject(ctx, { name: 'Windmill Row' });
    const strongest = await buildUpload(ctx, {
      projectId: old.id,
      name: 'Zephyr zephyr zephyr',
      createdAt: at(1),
    });
    // 1,005 newer photos with the word once, as rows (the pipeline would take minutes).
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1005)
      insert into uploads (project_id, creator_id, name, description, created_at, updated_at,
        preview_key, formatted_key, original_key, original_type, original_bytes,
        formatted_width, formatted_height, preview_width, preview_height)
      select ${busy.id}, creator_id, 'Zephyr gust ' || n.i, '', ${at(20)}, ${at(20)},
        preview_key, formatted_key, original_key, original_type, original_bytes,
        formatted_width, formatted_height, preview_width, preview_height
      from n cross join uploads where uploads.id = ${strongest}`.execute(ctx.db);

    const seen: number[] = [];
    let before: string | null | undefined;
    do {
      const params: Record<string, string> = { q: 'zephyr', type: 'uploads', limit: '50' };
      if (before) params.before = before;
      const page = await search(params);
      seen.push(...(ids(page.uploads) ?? []));
      before = page.uploads?.next;
    } while (before);
    expect(seen).toHaveLength(RANKED_MATCHES);
    expect(new Set(seen).size).toBe(RANKED_MATCHES);
    expect(seen).not.toContain(strongest);
    // Narrowed to its project, the old photo is among the ranked matches again, and first.
    const narrowed = await search({ q: 'zephyr', type: 'uploads', project: String(old.id) });
    expect(ids(narrowed.uploads)).toEqual([strongest]);
    const twoWords = await search({ q: 'zephyr gale', type: 'uploads' });
    expect(ids(twoWords.uploads)).toEqual([strongest]);
  }, 60_000);
});

describe('bad requests', () => {
  const bad = async (query: string, message: RegExp, as: string | undefined = token) => {
    const res = await api(ctx, { method: 'GET', url: `/api/search?${query}`, token: as });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(message);
  };

  it('answers 401 signed out', async () => {
    const res = await api(ctx, { method: 'GET', url: '/api/search?q=rebar' });
    expect(res.statusCode).toBe(401);
  });

  it('answers 400 with a message for each bad parameter', async () => {
    await bad('', /at least 2 characters|q/);
    await bad('q=a', /at least 2 characters/);
    await bad('q=%20%20a%20', /at least 2 characters/);
    await bad(`q=${'x'.repeat(1001)}`, /at most 1000/);
    await bad('q=rebar&type=files', /type must be one of/);
    await bad('q=rebar&project=abc', /project must be a project id/);
    await bad('q=rebar&author=-1', /author must be a positive/);
    await bad('q=rebar&from=2026-02-30', /not a real date/);
    await bad('q=rebar&from=yesterday', /from must be a date/);
    await bad('q=rebar&from=2026-03-02&to=2026-03-01', /from must not be after to/);
    await bad('q=rebar&by=taken', /by must be uploaded or captured/);
    await bad('q=rebar&archived=yes', /archived must be true or false/);
    await bad('q=rebar&limit=0', /limit must be at least 1/);
    await bad('q=rebar&limit=51', /limit must be at most 50/);
    await bad('q=rebar&before=abc', /before pages one section/);
    await bad('q=rebar&type=uploads&before=abc', /not a cursor/);
    const projects = await search({ q: 'rebar', type: 'projects', limit: '1' });
    // A projects cursor does not page uploads.
    await bad(`q=rebar&type=uploads&before=${projects.projects?.next ?? ''}`, /not a cursor/);
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const forged of [
      ['u', 'NaN', 1, 'x'],
      ['u', 1, '2026-03-01T12:00:00.000Z', 2147483648],
      ['u', 1, '2026-03-01T12:00:00.000Z', 0],
      ['u', 1, '\u0000', 5],
      ['u', 1e308, 'yesterday', 5],
      { u: 1 },
    ])
      await bad(`q=rebar&type=uploads&before=${forge(forged)}`, /not a cursor/);
  });

  it('survives 1,000 random queries: no 5xx, every answer 200 or a 400 with a message', async () => {
    const operators = fc.constantFrom(
      '"',
      '*',
      'NEAR',
      '-',
      '(',
      ')',
      ':',
      '^',
      'AND',
      'OR',
      'NOT',
      "'",
      ';',
      '%',
      '_',
      '\\',
      '&',
      '|',
      '!',
      '<->',
      ':*',
    );
    const query = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc
        .array(fc.oneof(operators, fc.constantFrom('rebar', 'béton', 'c4', 'x')), { maxLength: 12 })
        .map((w) => w.join(' ')),
      fc.string({ unit: 'binary', minLength: 900, maxLength: 1100 }),
    );
    const samples = fc.sample(query, { numRuns: 1000, seed: 1414 });
    const statuses = new Map<number, number>();
    for (const q of samples) {
      const res = await api(ctx, {
        method: 'GET',
        url: `/api/search?q=${encodeURIComponent(q)}`,
        token,
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode !== 200) {
        expect(res.statusCode, `${JSON.stringify(q)} → ${res.body}`).toBe(400);
        expect(res.json<{ message: string }>().message.length).toBeGreaterThan(0);
      }
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(500);
  }, 120_000);
});
