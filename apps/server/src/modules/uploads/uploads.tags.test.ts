// Tags on uploads (issue 15): normalisation and refusals, tags sent with a new photo, edited by
// the creator only, the feeds filtered by tag (with keyset pages), the suggestions (most used
// first, narrowed to a project), the two stored copies kept equal, and search finding a photo by
// its tags. Runs on SQLite and PostgreSQL.
import type { ErrorResponse, SearchResponse, TagSuggestion, Upload } from '@sitelog/shared';
import { normalizeTag, tagLimits } from '@sitelog/shared';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveProject,
  buildProject,
  buildUpload,
  type TestProject,
} from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import { dtoPart, filePart, postUpload, uploadRowCount } from '../../../test/uploads.js';
import * as searchTagsMigration from '../../db/migrations/2026-11-26-05-search-tags.js';
import { tagSuggestionsQuery } from './uploads.repository.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;
let project: TestProject;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Tagger' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Other' });
  project = await buildProject(ctx, { creatorId: alice.id, name: 'Tag Tower' });
});
afterAll(async () => ctx?.close());

const patch = (id: number, token: string, upload: Record<string, unknown>) =>
  api(ctx, {
    method: 'PATCH',
    url: `/api/upload/update/no-image/${id}`,
    token,
    payload: { upload },
  });

const getUpload = async (id: number, token = alice.token) => {
  const res = await api(ctx, { method: 'GET', url: `/api/upload/full/${id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>();
};

/** Both stored copies of an upload's tags: the row's JSON list and the `upload_tags` pairs. */
async function storedTags(id: number) {
  const row = await ctx.db
    .selectFrom('uploads')
    .select('tags')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const pairs = await ctx.db
    .selectFrom('upload_tags')
    .select('tag')
    .where('upload_id', '=', id)
    .orderBy('tag')
    .execute();
  return { column: JSON.parse(row.tags) as string[], pairs: pairs.map((p) => p.tag) };
}

async function expectStored(id: number, tags: string[]) {
  expect(await storedTags(id)).toEqual({ column: tags, pairs: [...tags].sort() });
}

async function get<T>(url: string, token = alice.token): Promise<T> {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

describe('the upload shape', () => {
  it('carries tags and commentsCount on every upload call', async () => {
    const id = await buildUpload(ctx, {
      projectId: project.id,
      creatorId: alice.id,
      tags: ['concrete', 'level 3'],
    });
    const plain = await buildUpload(ctx, { projectId: project.id, creatorId: alice.id });
    // The comments module keeps the count; here it is set directly to see it read.
    await ctx.db.updateTable('uploads').set({ comments_count: 3 }).where('id', '=', id).execute();

    expect(await getUpload(id)).toMatchObject({ tags: ['concrete', 'level 3'], commentsCount: 3 });
    expect(await getUpload(plain)).toMatchObject({ tags: [], commentsCount: 0 });
    for (const url of [
      `/api/upload/project/${project.id}/latest`,
      `/api/upload/user/${alice.id}/latest`,
      '/api/upload/latest/50',
    ]) {
      const list = await get<Upload[]>(url);
      expect(
        list.find((u) => u.id === id),
        url,
      ).toMatchObject({
        tags: ['concrete', 'level 3'],
        commentsCount: 3,
      });
      expect(
        list.find((u) => u.id === plain),
        url,
      ).toMatchObject({ tags: [], commentsCount: 0 });
    }
  });
});

describe('normalizeTag', () => {
  it('is idempotent: a normalised tag normalises to itself', () => {
    const samples = [
      '\u03AA\u0301', // Ϊ and an acute: lower case makes ϊ + acute, which NFC composes
      'T\u0308\u0301',
      '\u0386\u0345',
      '\u0389\u0345',
      '\u038F\u0345',
      'İstanbul',
      'STRASSE ß',
      ' Level\u00a0\u00a03 ',
      'Cafe\u0301',
      'ǅ',
      'ﬃ',
      '😀 Emoji',
    ];
    for (let c = 0x20; c < 0x3000; c += 1) {
      const ch = String.fromCodePoint(c);
      samples.push(ch, `${ch}\u0301`, `${ch}\u0307`, `${ch}\u0345`, `${ch}\u0308\u0301`);
    }
    const unstable = samples.filter((t) => normalizeTag(normalizeTag(t)) !== normalizeTag(t));
    expect(unstable).toEqual([]);
    expect(normalizeTag('\u03AA\u0301')).toBe('\u0390');
    expect(normalizeTag('  Level   3 ')).toBe('level 3');
  });
});

describe('PATCH /api/upload/update/no-image/{id} with tags', () => {
  it('normalises: case, spacing, NFC; duplicates merge, the first one keeps its place', async () => {
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: alice.id });
    const res = await patch(id, alice.token, {
      tags: [' Electrical ', 'LEVEL \t 3', 'electrical', 'Cafe\u0301', 'café', 'Level 3'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Upload>().tags).toEqual(['electrical', 'level 3', 'café']);
    await expectStored(id, ['electrical', 'level 3', 'café']);
  });

  it('replaces the list, keeps other fields, and an empty list removes them all', async () => {
    const id = await buildUpload(ctx, {
      projectId: project.id,
      creatorId: alice.id,
      name: 'Keep me',
      tags: ['defect', 'safety'],
    });
    const replaced = await patch(id, alice.token, { tags: ['safety', 'roof'] });
    expect(replaced.json()).toMatchObject({ name: 'Keep me', tags: ['safety', 'roof'] });
    await expectStored(id, ['safety', 'roof']);

    // Without `tags` the list stays.
    const renamed = await patch(id, alice.token, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', tags: ['safety', 'roof'] });

    const cleared = await patch(id, alice.token, { tags: [] });
    expect(cleared.json<Upload>().tags).toEqual([]);
    await expectStored(id, []);
  });

  it('accepts exactly the limits: 20 tags of 40 characters', async () => {
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: alice.id });
    const tags = Array.from(
      { length: tagLimits.perUpload },
      (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(tagLimits.tagMax - 2)}`,
    );
    const res = await patch(id, alice.token, { tags });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Upload>().tags).toEqual(tags);
    // 21 spellings of 20 tags merge to 20: accepted.
    const merged = await patch(id, alice.token, { tags: [...tags, tags[0]!.toUpperCase()] });
    expect(merged.statusCode, merged.body).toBe(200);
  });

  it.each([
    ['an empty tag', ['ok', '   '], 'A tag cannot be empty.'],
    ['a tag too long', ['y'.repeat(41)], 'A tag must be at most 40 characters.'],
    [
      'too many tags',
      Array.from({ length: 21 }, (_, i) => `tag ${i}`),
      'A photo can have at most 20 tags.',
    ],
    ['a control character', ['bad\u0007tag'], 'A tag must not contain control characters.'],
    ['a lone high surrogate', ['\ud800'], 'A tag must be valid text.'],
    ['a lone low surrogate', ['ok', 'ok\udc00'], 'A tag must be valid text.'],
    ['a tag that is not text', [5], 'A tag must be text.'],
    ['tags that are not a list', 'electrical', 'tags must be a list of texts.'],
  ])('refuses %s (400 with a message) and keeps the tags', async (_label, tags, message) => {
    const id = await buildUpload(ctx, {
      projectId: project.id,
      creatorId: alice.id,
      tags: ['before'],
    });
    const res = await patch(id, alice.token, { tags });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorResponse>().message).toBe(message);
    await expectStored(id, ['before']);
  });

  it("refuses another member's tags (403) and an archived project's photo (409)", async () => {
    const id = await buildUpload(ctx, {
      projectId: project.id,
      creatorId: alice.id,
      tags: ['mine'],
    });
    const res = await patch(id, bob.token, { tags: ['hijacked'] });
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorResponse>().message).toMatch(/Only the member who uploaded this photo/);
    await expectStored(id, ['mine']);

    const closed = await buildProject(ctx, { creatorId: alice.id });
    const archivedPhoto = await buildUpload(ctx, {
      projectId: closed.id,
      creatorId: alice.id,
      tags: ['kept'],
    });
    await archiveProject(ctx, closed.id);
    const refused = await patch(archivedPhoto, alice.token, { tags: ['changed'] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorResponse>().message).toMatch(/archived/);
    await expectStored(archivedPhoto, ['kept']);
  });

  it('answers 401 signed out', async () => {
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: alice.id });
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${id}`,
      payload: { upload: { tags: ['x'] } },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/upload/autoupload with tags', () => {
  it('stores the tags sent with the photo, normalised', async () => {
    const res = await postUpload(ctx, alice.token, [
      filePart(await jpegWithExif()),
      dtoPart({ projectId: project.id, tags: ['Concrete', ' concrete ', 'Pour  Day'] }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const upload = res.json<Upload>();
    expect(upload.tags).toEqual(['concrete', 'pour day']);
    await expectStored(upload.id, ['concrete', 'pour day']);
  });

  it('refuses bad tags with a message and stores nothing', async () => {
    const before = await uploadRowCount(ctx);
    for (const [tags, message] of [
      [['a\u0000b'], 'A tag must not contain control characters.'],
      [['level\udbff 3'], 'A tag must be valid text.'],
      [[''], 'A tag cannot be empty.'],
      [Array.from({ length: 25 }, (_, i) => `t${i}`), 'A photo can have at most 20 tags.'],
    ] as const) {
      const res = await postUpload(ctx, alice.token, [
        filePart(await jpegWithExif()),
        dtoPart({ projectId: project.id, tags }),
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorResponse>().message).toBe(message);
    }
    expect(await uploadRowCount(ctx)).toBe(before);
  });
});

describe('feeds filtered by tag', () => {
  let feedProject: TestProject;
  let other: TestProject;
  /** Tagged "level 3" in feedProject, newest first as the feed orders them. */
  const tagged: number[] = [];
  const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 8, minute)).toISOString();

  beforeAll(async () => {
    feedProject = await buildProject(ctx, { creatorId: bob.id, name: 'Feed by tag' });
    other = await buildProject(ctx, { creatorId: bob.id, name: 'Feed elsewhere' });
    const ids: { id: number; minute: number }[] = [];
    // Minutes 1–9, every other one tagged; two share minute 5 (the id breaks the tie).
    for (const minute of [1, 2, 3, 4, 5, 5, 6, 7, 8, 9]) {
      const isTagged = minute % 2 === 1;
      const id = await buildUpload(ctx, {
        projectId: feedProject.id,
        creatorId: bob.id,
        createdAt: at(minute),
        tags: isTagged ? ['defect', 'level 3'] : ['defect'],
      });
      if (isTagged) ids.push({ id, minute });
    }
    await buildUpload(ctx, {
      projectId: other.id,
      creatorId: bob.id,
      createdAt: at(10),
      tags: ['level 3'],
    });
    tagged.push(...ids.sort((a, b) => b.minute - a.minute || b.id - a.id).map((entry) => entry.id));
  });

  const pageIds = async (url: string) => (await get<Upload[]>(url)).map((u) => u.id);

  it('answers only the tagged photos, compared normalised, newest first', async () => {
    const ids = await pageIds(
      `/api/upload/project/${feedProject.id}/latest?tag=${encodeURIComponent('  LEVEL   3 ')}`,
    );
    expect(ids).toEqual(tagged);
    expect(
      await pageIds(`/api/upload/project/${feedProject.id}/latest?tag=nothing-like-it`),
    ).toEqual([]);
  });

  it('walks the filtered feed in keyset pages: every tagged photo once, in order', async () => {
    const seen: number[] = [];
    let before: number | undefined;
    for (let i = 0; i < 10; i++) {
      const query = `tag=level%203&limit=2${before === undefined ? '' : `&before=${before}`}`;
      const ids = await pageIds(`/api/upload/project/${feedProject.id}/latest?${query}`);
      seen.push(...ids);
      if (ids.length < 2) break;
      before = ids[ids.length - 1];
    }
    expect(seen).toEqual(tagged);
  });

  it("filters a member's feed across projects", async () => {
    const ids = await pageIds(`/api/upload/user/${bob.id}/latest?tag=level%203&limit=3`);
    const all = await pageIds(`/api/upload/user/${bob.id}/latest?tag=level%203`);
    expect(all).toHaveLength(tagged.length + 1);
    expect(all.slice(1)).toEqual(tagged);
    expect(ids).toEqual(all.slice(0, 3));
  });

  it('answers 404 for an unknown project and 400 for a bad tag', async () => {
    const missing = await api(ctx, {
      method: 'GET',
      url: '/api/upload/project/999999/latest?tag=defect',
      token: alice.token,
    });
    expect(missing.statusCode).toBe(404);
    const long = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${feedProject.id}/latest?tag=${'z'.repeat(41)}`,
      token: alice.token,
    });
    expect(long.statusCode).toBe(400);
    expect(long.json<ErrorResponse>().message).toBe('A tag must be at most 40 characters.');
    const blank = await api(ctx, {
      method: 'GET',
      url: `/api/upload/project/${feedProject.id}/latest?tag=%20%20`,
      token: alice.token,
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<ErrorResponse>().message).toBe('A tag cannot be empty.');
  });
});

describe('GET /api/upload/tags', () => {
  let a: TestProject;
  let b: TestProject;

  beforeAll(async () => {
    // A workspace of its own, so counts are exact.
    const carol = await signedInUser(ctx);
    a = await buildProject(ctx, { creatorId: carol.id, name: 'Suggest A' });
    b = await buildProject(ctx, { creatorId: carol.id, name: 'Suggest B' });
    const add = (projectId: number, tags: string[]) =>
      buildUpload(ctx, { projectId, creatorId: carol.id, tags });
    await add(a.id, ['sg electrical', 'sg level 3']);
    await add(a.id, ['sg electrical', 'sg level 2']);
    await add(a.id, ['sg level 3']);
    await add(b.id, ['sg level 2', 'sg lift']);
    await add(b.id, ['sg level 2']);
    await add(b.id, ['sg level 2', 'sg electrical']);
  });

  const suggest = (query: string, token = alice.token) =>
    get<TagSuggestion[]>(`/api/upload/tags?${query}`, token);

  it('answers tags starting with q, most used first, then alphabetical', async () => {
    expect(await suggest('q=sg%20')).toEqual([
      { tag: 'sg level 2', count: 4 },
      { tag: 'sg electrical', count: 3 },
      { tag: 'sg level 3', count: 2 },
      { tag: 'sg lift', count: 1 },
    ]);
    // q is normalised like a tag.
    expect(await suggest(`q=${encodeURIComponent('  SG   LE')}`)).toEqual([
      { tag: 'sg level 2', count: 4 },
      { tag: 'sg level 3', count: 2 },
    ]);
    expect(await suggest('q=sg%20zz')).toEqual([]);
  });

  it('counts only the project given', async () => {
    expect(await suggest(`q=sg&project=${a.id}`)).toEqual([
      { tag: 'sg electrical', count: 2 },
      { tag: 'sg level 3', count: 2 },
      { tag: 'sg level 2', count: 1 },
    ]);
    expect(await suggest(`q=sg%20l&project=${b.id}`)).toEqual([
      { tag: 'sg level 2', count: 3 },
      { tag: 'sg lift', count: 1 },
    ]);
  });

  it('answers every tag without q, at most 20', async () => {
    const crowd = await buildProject(ctx, { creatorId: bob.id });
    await buildUpload(ctx, {
      projectId: crowd.id,
      creatorId: bob.id,
      tags: Array.from({ length: 20 }, (_, i) => `crowd ${String(i).padStart(2, '0')}`),
    });
    await buildUpload(ctx, {
      projectId: crowd.id,
      creatorId: bob.id,
      tags: Array.from({ length: 5 }, (_, i) => `crowd x${i}`),
    });
    const all = await suggest(`project=${crowd.id}`);
    expect(all).toHaveLength(tagLimits.suggestions);
    expect(all[0]).toEqual({ tag: 'crowd 00', count: 1 });
    expect(all.map((s) => s.tag)).toEqual([...all.map((s) => s.tag)].sort());
    expect(await suggest('q=crowd%20x')).toHaveLength(5);
  });

  it('matches prefixes of any script, and no LIKE wildcards', async () => {
    const p = await buildProject(ctx, { creatorId: bob.id });
    await buildUpload(ctx, {
      projectId: p.id,
      creatorId: bob.id,
      tags: ['größe', 'grüße', '100% done', '東京 site'],
    });
    expect((await suggest('q=GR%C3%96')).map((s) => s.tag)).toEqual(['größe']);
    expect((await suggest(`q=${encodeURIComponent('東')}`)).map((s) => s.tag)).toEqual([
      '東京 site',
    ]);
    expect((await suggest('q=100%25')).map((s) => s.tag)).toEqual(['100% done']);
    expect(await suggest('q=_')).toEqual([]);
    expect(await suggest('q=%25')).toEqual([]);
  });

  it('matches up to the last code points there are', async () => {
    const p = await buildProject(ctx, { creatorId: bob.id });
    await buildUpload(ctx, {
      projectId: p.id,
      creatorId: bob.id,
      tags: ['\ud7ff edge', '\ue000 next', '\u{10ffff} last', '\u{10ffff}\u{10ffff} twice'],
    });
    const tags = async (q: string) =>
      (await suggest(`q=${encodeURIComponent(q)}&project=${p.id}`)).map((s) => s.tag);
    expect(await tags('\ud7ff')).toEqual(['\ud7ff edge']);
    expect(await tags('\ue000')).toEqual(['\ue000 next']);
    expect(await tags('\u{10ffff}')).toEqual(['\u{10ffff} last', '\u{10ffff}\u{10ffff} twice']);
  });

  it('reads only the tags that can match, from an index range, on either database', async () => {
    const compiled = tagSuggestionsQuery(ctx.db, { prefix: 'sg le', limit: 20 }).compile();
    const explain = (prefix: string) =>
      ctx.db.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`${prefix} ${compiled.sql}`, [...compiled.parameters]),
      );
    if (ctx.config.database.kind === 'postgres') {
      // Whatever the table's size: with scans of the whole table priced out, an index that
      // answers the range must exist.
      const plan = await ctx.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
        );
        return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('upload_tags_tag_prefix_idx');
      expect(plan).toMatch(/Index Cond: .*>=/);
    } else {
      const plan = (await explain('explain query plan')).rows.map((r) => String(r.detail));
      expect(plan.join('\n')).toMatch(/upload_tags_tag_idx \(tag>\? AND tag<\?\)/);
    }
  });

  it('answers 401 signed out, 404 for an unknown project, 400 for bad input', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/upload/tags?q=a' })).statusCode).toBe(401);
    const missing = await api(ctx, {
      method: 'GET',
      url: '/api/upload/tags?project=999999',
      token: alice.token,
    });
    expect(missing.statusCode).toBe(404);
    for (const [query, message] of [
      [`q=${'q'.repeat(41)}`, 'q must be at most 40 characters.'],
      ['project=abc', 'project must be a project id.'],
      ['q=a%00b', 'q must not contain control characters.'],
    ] as const) {
      const res = await api(ctx, {
        method: 'GET',
        url: `/api/upload/tags?${query}`,
        token: bob.token,
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json<ErrorResponse>().message).toBe(message);
    }
  });
});

describe('search finds photos by their tags', () => {
  const searchUploads = async (q: string) =>
    (
      await get<SearchResponse>(
        `/api/search?${new URLSearchParams({ q, type: 'uploads' }).toString()}`,
      )
    ).uploads?.items.map((u) => u.id);

  it('finds a tagged photo by its tag, and follows a change of tags and of project name', async () => {
    const site = await buildProject(ctx, { creatorId: alice.id, name: 'Search site' });
    const id = await buildUpload(ctx, {
      projectId: site.id,
      creatorId: alice.id,
      name: 'Plain name',
      tags: ['switchgear', 'level 7'],
    });
    expect(await searchUploads('switchgear')).toEqual([id]);
    expect(await searchUploads('SWITCHG')).toEqual([id]);

    expect((await patch(id, alice.token, { tags: ['busbar'] })).statusCode).toBe(200);
    expect(await searchUploads('switchgear')).toEqual([]);
    expect(await searchUploads('busbar')).toEqual([id]);

    // Renaming the project or the author rewrites the photo's document (a trigger each): the
    // tags stay in it.
    await ctx.db
      .updateTable('projects')
      .set({ name: 'Search site 2' })
      .where('id', '=', site.id)
      .execute();
    expect(await searchUploads('busbar')).toEqual([id]);
    await ctx.db
      .updateTable('users')
      .set({ firstname: 'Alicia' })
      .where('id', '=', alice.id)
      .execute();
    expect(await searchUploads('busbar')).toEqual([id]);
  });

  it("the migration's backfill puts tags written before it into the documents", async () => {
    const db = ctx.db as unknown as Kysely<unknown>;
    const id = await buildUpload(ctx, { projectId: project.id, creatorId: alice.id });
    await searchTagsMigration.down(db);
    // Before the migration, tags did not reach the document.
    await ctx.db
      .updateTable('uploads')
      .set({ tags: '["formwork"]' })
      .where('id', '=', id)
      .execute();
    expect(await searchUploads('formwork')).toEqual([]);
    await searchTagsMigration.up(db);
    expect(await searchUploads('formwork')).toEqual([id]);
  });
});
