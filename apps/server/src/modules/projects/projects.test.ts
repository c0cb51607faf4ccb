import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES } from '../../http/compression.js';
import { buildProject, buildUpload } from '../../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx, { firstname: 'Alice', lastname: 'Archer' });
  bob = await signedInUser(ctx, { firstname: 'Bob', lastname: 'Builder' });
});
afterAll(async () => ctx.close());

async function createProject(token: string, project: Record<string, unknown>) {
  return api(ctx, { method: 'POST', url: '/api/project/create', token, payload: { project } });
}

async function newProject(
  token: string,
  name = `Project ${Math.random().toString(36).slice(2, 8)}`,
) {
  const res = await createProject(token, {
    name,
    location: 'Munich, Bavaria, Germany',
    description: 'Roof works',
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; name: string };
}

describe('POST /api/project/create', () => {
  it('creates a project with trimmed fields and answers it', async () => {
    const res = await createProject(alice.token, {
      name: '  Harbour Bridge repaint  ',
      location: ' Sydney, New South Wales, Australia ',
      description: 'Phase 2',
      latitude: -33.85,
      longitude: 151.21,
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      name: 'Harbour Bridge repaint',
      location: 'Sydney, New South Wales, Australia',
      description: 'Phase 2',
      latitude: -33.85,
      longitude: 151.21,
      creator: { id: alice.id, firstname: 'Alice', lastname: 'Archer' },
      uploadsCount: 0,
      lastUploads: [],
      isFavorited: false,
      isFollowed: false,
    });
    expect(typeof p.id).toBe('number');
    expect(Date.parse(p.updatedAt)).not.toBeNaN();
  });

  it('makes the description optional', async () => {
    const res = await createProject(alice.token, {
      name: 'No description',
      location: 'Berlin, Germany',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().description).toBe('');
  });

  it.each([
    ['a missing name', { location: 'Paris' }, /name/i],
    ['a whitespace name', { name: '   ', location: 'Paris' }, /name is required/i],
    ['an empty location', { name: 'X', location: '' }, /location is required/i],
    ['an over-long name', { name: 'x'.repeat(121), location: 'Paris' }, /at most 120/],
    [
      'an over-long description',
      { name: 'X', location: 'Paris', description: 'y'.repeat(5001) },
      /at most 5000/,
    ],
    ['a numeric name', { name: 42, location: 'Paris' }, /must be text/i],
    ['a latitude out of range', { name: 'X', location: 'Paris', latitude: 91 }, /out of range/i],
    ['a NUL byte in the name', { name: 'Bad\u0000name', location: 'Paris' }, /control characters/i],
    [
      'a control character in the description',
      { name: 'X', location: 'Paris', description: 'a\u0007b' },
      /control characters/i,
    ],
  ])('refuses %s with 400 and a message, creating nothing', async (_label, project, message) => {
    const before = await api(ctx, {
      method: 'GET',
      url: '/api/project/all/list',
      token: alice.token,
    });
    const res = await createProject(alice.token, project);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    const after = await api(ctx, {
      method: 'GET',
      url: '/api/project/all/list',
      token: alice.token,
    });
    expect(after.json()).toHaveLength(before.json().length);
  });

  it('refuses a payload without the project wrapper', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: alice.token,
      payload: { name: 'X' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 401 when signed out', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      payload: { project: { name: 'X', location: 'Y' } },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/project/all/list', () => {
  it('answers positional rows: id, name, location, updatedAt, uploads count, creator name', async () => {
    const p = await newProject(bob.token, 'Row shape check');
    const res = await api(ctx, { method: 'GET', url: '/api/project/all/list', token: alice.token });
    expect(res.statusCode).toBe(200);
    const row = (res.json() as unknown[][]).find((r) => r[0] === p.id);
    expect(row).toEqual([
      p.id,
      'Row shape check',
      'Munich, Bavaria, Germany',
      expect.any(String),
      0,
      'Bob Builder',
    ]);
  });

  it('lists the most recently updated first', async () => {
    const older = await newProject(alice.token);
    const newer = await newProject(alice.token);
    const rows = (
      await api(ctx, { method: 'GET', url: '/api/project/all/list', token: alice.token })
    ).json() as number[][];
    const ids = rows.map((r) => r[0]);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });

  it('writes any text as JSON strings, breaks ties on updatedAt by id and leaves out archived projects', async () => {
    // The database writes this answer's JSON itself (listProjectRowsJson).
    const name = 'Quote " backslash \\ tab\t line\u2028 nul-ish \u0001 emoji 🏗️ ü';
    const at = '2001-02-03T04:05:06.000Z';
    const first = await buildProject(ctx, {
      creatorId: bob.id,
      name,
      location: '</script>',
      createdAt: at,
    });
    const second = await buildProject(ctx, { creatorId: bob.id, name: 'Tie', createdAt: at });
    const archived = await buildProject(ctx, { creatorId: bob.id, createdAt: at });
    await ctx.db
      .updateTable('projects')
      .set({ archived_at: new Date().toISOString() })
      .where('id', '=', archived.id)
      .execute();
    const res = await api(ctx, { method: 'GET', url: '/api/project/all/list', token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const rows = res.json() as unknown[][];
    const ids = rows.map((r) => r[0]);
    expect(ids).not.toContain(archived.id);
    expect(ids.indexOf(second.id)).toBe(ids.indexOf(first.id) - 1);
    expect(rows.find((r) => r[0] === first.id)).toEqual([
      first.id,
      name,
      '</script>',
      at,
      0,
      'Bob Builder',
    ]);
  });

  it('answers an empty list as []', async () => {
    const empty = await createTestContext();
    try {
      const viewer = await signedInUser(empty);
      const res = await api(empty, {
        method: 'GET',
        url: '/api/project/all/list',
        token: viewer.token,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it('answers 401 when signed out', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/project/all/list' })).statusCode).toBe(401);
  });
});

describe('GET /api/project/id/{id}', () => {
  it('answers the project', async () => {
    const p = await newProject(alice.token, 'Lookup');
    const res = await api(ctx, { method: 'GET', url: `/api/project/id/${p.id}`, token: bob.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, name: 'Lookup', isFavorited: false });
  });

  it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
    const missing = await api(ctx, {
      method: 'GET',
      url: '/api/project/id/999999',
      token: bob.token,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toMatch(/project was not found/i);
    const bad = await api(ctx, { method: 'GET', url: '/api/project/id/abc', token: bob.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/number/i);
    const negative = await api(ctx, { method: 'GET', url: '/api/project/id/-3', token: bob.token });
    expect(negative.statusCode).toBe(400);
  });

  it('answers 401 when signed out', async () => {
    expect((await api(ctx, { method: 'GET', url: '/api/project/id/1' })).statusCode).toBe(401);
  });
});

describe('bookmarks and follows', () => {
  it('bookmarks per user and lists the project in /bookmark and /favnfol', async () => {
    const p = await newProject(alice.token);
    const favored = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/favor/`,
      token: bob.token,
    });
    expect(favored.statusCode).toBe(200);
    expect(favored.json()).toMatchObject({ id: p.id, isFavorited: true, isFollowed: false });

    const forAlice = await api(ctx, {
      method: 'GET',
      url: `/api/project/id/${p.id}`,
      token: alice.token,
    });
    expect(forAlice.json().isFavorited).toBe(false);

    const bookmarks = (
      await api(ctx, { method: 'GET', url: '/api/project/bookmark', token: bob.token })
    ).json() as { id: number }[];
    expect(bookmarks.map((b) => b.id)).toContain(p.id);
    const aliceBookmarks = (
      await api(ctx, { method: 'GET', url: '/api/project/bookmark', token: alice.token })
    ).json() as { id: number }[];
    expect(aliceBookmarks.map((b) => b.id)).not.toContain(p.id);
    const favnfol = (
      await api(ctx, { method: 'GET', url: '/api/project/favnfol', token: bob.token })
    ).json() as { id: number }[];
    expect(favnfol.map((b) => b.id)).toContain(p.id);

    const unfavored = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/unfavor/`,
      token: bob.token,
    });
    expect(unfavored.json().isFavorited).toBe(false);
    const after = (
      await api(ctx, { method: 'GET', url: '/api/project/bookmark', token: bob.token })
    ).json() as { id: number }[];
    expect(after.map((b) => b.id)).not.toContain(p.id);
  });

  it('follows and unfollows, and /favnfol includes followed projects', async () => {
    const p = await newProject(alice.token);
    const followed = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/follow/`,
      token: bob.token,
    });
    expect(followed.json()).toMatchObject({ isFollowed: true, isFavorited: false });
    const favnfol = (
      await api(ctx, { method: 'GET', url: '/api/project/favnfol', token: bob.token })
    ).json() as { id: number }[];
    expect(favnfol.map((b) => b.id)).toContain(p.id);
    const unfollowed = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/unfollow`,
      token: bob.token,
    });
    expect(unfollowed.json().isFollowed).toBe(false);
  });

  it('is idempotent: twice is fine and leaves one row, even concurrently', async () => {
    const p = await newProject(alice.token);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api(ctx, { method: 'GET', url: `/api/project/${p.id}/favor/`, token: bob.token }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await ctx.db
      .selectFrom('project_bookmarks')
      .selectAll()
      .where('project_id', '=', p.id)
      .where('user_id', '=', bob.id)
      .execute();
    expect(rows).toHaveLength(1);
    const twiceUnfavor = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/unfavor/`,
      token: bob.token,
    });
    expect(
      (await api(ctx, { method: 'GET', url: `/api/project/${p.id}/unfavor/`, token: bob.token }))
        .statusCode,
    ).toBe(200);
    expect(twiceUnfavor.json().isFavorited).toBe(false);
  });

  it('answers 404 on a missing project, 400 on a bad id, 401 signed out', async () => {
    expect(
      (await api(ctx, { method: 'GET', url: '/api/project/999999/favor/', token: bob.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await api(ctx, { method: 'GET', url: '/api/project/x/follow/', token: bob.token }))
        .statusCode,
    ).toBe(400);
    expect((await api(ctx, { method: 'GET', url: '/api/project/1/favor/' })).statusCode).toBe(401);
    const none = await ctx.db
      .selectFrom('project_bookmarks')
      .selectAll()
      .where('project_id', '=', 999999)
      .execute();
    expect(none).toHaveLength(0);
  });

  it('cannot be reached with HEAD or cross-site', async () => {
    const p = await newProject(alice.token);
    const head = await api(ctx, {
      method: 'HEAD',
      url: `/api/project/${p.id}/favor/`,
      token: bob.token,
    });
    expect(head.statusCode).toBe(404);
    const cross = await api(ctx, {
      method: 'GET',
      url: `/api/project/${p.id}/favor/`,
      token: bob.token,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
    const rows = await ctx.db
      .selectFrom('project_bookmarks')
      .selectAll()
      .where('project_id', '=', p.id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});

describe('my projects, member projects, relevant', () => {
  it('lists only the projects the user created in /user and /profile/{id}', async () => {
    const carol = await signedInUser(ctx);
    const mine = await newProject(carol.token, 'Carol site');
    await newProject(alice.token, 'Not Carol');
    const res = await api(ctx, { method: 'GET', url: '/api/project/user', token: carol.token });
    expect((res.json() as { id: number }[]).map((p) => p.id)).toEqual([mine.id]);
    const profile = await api(ctx, {
      method: 'GET',
      url: `/api/project/profile/${carol.id}`,
      token: bob.token,
    });
    expect((profile.json() as { id: number }[]).map((p) => p.id)).toEqual([mine.id]);
    expect(
      (await api(ctx, { method: 'GET', url: '/api/project/profile/abc', token: bob.token }))
        .statusCode,
    ).toBe(400);
    expect((await api(ctx, { method: 'GET', url: '/api/project/user' })).statusCode).toBe(401);
  });

  it('answers the relevant projects: created, bookmarked or followed, newest first, capped', async () => {
    const dave = await signedInUser(ctx);
    const own = await newProject(dave.token);
    const other = await newProject(alice.token);
    const followedByDave = await newProject(alice.token);
    const unrelated = await newProject(alice.token);
    await api(ctx, {
      method: 'GET',
      url: `/api/project/${followedByDave.id}/follow/`,
      token: dave.token,
    });
    await api(ctx, { method: 'GET', url: `/api/project/${other.id}/favor/`, token: dave.token });
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/project/relevant/5',
      token: dave.token,
    });
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { id: number }[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([own.id, other.id, followedByDave.id]));
    expect(ids).not.toContain(unrelated.id);
    const capped = await api(ctx, {
      method: 'GET',
      url: '/api/project/relevant/2',
      token: dave.token,
    });
    expect(capped.json()).toHaveLength(2);
    expect(
      (await api(ctx, { method: 'GET', url: '/api/project/relevant/0', token: dave.token }))
        .statusCode,
    ).toBe(400);
  });
});

describe('PATCH /api/project/update/{id}', () => {
  it('lets the creator edit name, location and description', async () => {
    const p = await newProject(alice.token);
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${p.id}`,
      token: alice.token,
      payload: {
        project: { name: 'Renamed', location: 'Hamburg, Germany', description: 'New scope' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: p.id,
      name: 'Renamed',
      location: 'Hamburg, Germany',
      description: 'New scope',
    });
  });

  it('answers 403 to another member and changes nothing', async () => {
    const p = await newProject(alice.token, 'Keep me');
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${p.id}`,
      token: bob.token,
      payload: { project: { name: 'Hijacked', location: 'Nowhere' } },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/creator/i);
    const after = await api(ctx, {
      method: 'GET',
      url: `/api/project/id/${p.id}`,
      token: alice.token,
    });
    expect(after.json().name).toBe('Keep me');
  });

  it('answers 400 for bad input, 404 for an unknown project, 401 signed out', async () => {
    const p = await newProject(alice.token);
    const bad = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${p.id}`,
      token: alice.token,
      payload: { project: { name: '', location: 'X' } },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await api(ctx, {
      method: 'PATCH',
      url: '/api/project/update/999999',
      token: alice.token,
      payload: { project: { name: 'A', location: 'B' } },
    });
    expect(missing.statusCode).toBe(404);
    const out = await api(ctx, {
      method: 'PATCH',
      url: `/api/project/update/${p.id}`,
      payload: { project: { name: 'A', location: 'B' } },
    });
    expect(out.statusCode).toBe(401);
  });
});

describe('response compression', () => {
  it('compresses large JSON lists (br first, then gzip) and sends small answers as they are', async () => {
    const small = await api(ctx, {
      method: 'GET',
      url: '/api/project/all/list',
      token: alice.token,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.statusCode).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();

    for (let i = 0; i < 300; i++) await buildProject(ctx, { creatorId: alice.id });
    for (const [accepts, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await api(ctx, {
        method: 'GET',
        url: '/api/project/all/list',
        token: alice.token,
        headers: { 'accept-encoding': accepts },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('no-store');
      const body =
        encoding === 'br'
          ? brotliDecompressSync(res.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(res.rawPayload)
            : res.rawPayload;
      expect(body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
      expect((JSON.parse(body.toString()) as unknown[]).length).toBeGreaterThan(300);
    }
  });

  it('leaves routes that are not large lists alone, whatever the client accepts', async () => {
    const res = await api(ctx, {
      method: 'GET',
      url: '/api/auth/me',
      token: alice.token,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    // The compression hooks never ran on it (they add Vary even when they do not compress).
    expect(res.headers.vary ?? '').not.toMatch(/accept-encoding/i);
  });

  it('negotiates the encoding as browsers and proxies ask for it', async () => {
    while ((await ctx.db.selectFrom('projects').select('id').execute()).length < 300)
      await buildProject(ctx, { creatorId: alice.id });
    const cases: [Record<string, string>, string | undefined][] = [
      [{ 'accept-encoding': 'gzip;q=1, br;q=0.5' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0, gzip' }, 'gzip'],
      [{ 'accept-encoding': '*' }, 'gzip'],
      [{ 'accept-encoding': 'x-gzip' }, 'gzip'],
      [{ 'accept-encoding': 'BR' }, 'br'],
      [{ 'accept-encoding': 'deflate, compress' }, undefined],
      [{ 'accept-encoding': '' }, undefined],
      [{ 'accept-encoding': 'br', 'x-no-compression': '1' }, undefined],
      [{}, undefined],
    ];
    let plain: string | undefined;
    for (const [headers, encoding] of cases) {
      const res = await api(ctx, {
        method: 'GET',
        url: '/api/project/all/list',
        token: alice.token,
        headers,
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBe(encoding);
      if (encoding) expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const body = (
        encoding === 'br'
          ? brotliDecompressSync(res.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(res.rawPayload)
            : res.rawPayload
      ).toString();
      plain ??= body;
      expect(body).toBe(plain);
    }
  });
});

describe('lastUploads', () => {
  it('carries the four newest uploads of each project in a list, newest first', async () => {
    const erin = await signedInUser(ctx);
    const a = await newProject(erin.token, 'Thumbs A');
    const b = await newProject(erin.token, 'Thumbs B');
    const insert = (projectId: number, minutesAgo: number) =>
      buildUpload(ctx, {
        projectId,
        creatorId: erin.id,
        createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      });
    const aIds: number[] = [];
    for (const minutes of [60, 10, 50, 20, 40, 30]) aIds.push(await insert(a.id, minutes));
    const bOnly = await insert(b.id, 5);
    const newest = await ctx.db
      .selectFrom('uploads')
      .select('preview_key')
      .where('id', '=', aIds[1] ?? 0)
      .executeTakeFirstOrThrow();

    const list = (
      await api(ctx, { method: 'GET', url: '/api/project/user', token: erin.token })
    ).json() as {
      id: number;
      lastUploads: { id: number; previewLink: string }[];
    }[];
    const byId = new Map(list.map((p) => [p.id, p]));
    // Newest first: 10, 20, 30, 40 minutes ago.
    expect(byId.get(a.id)?.lastUploads.map((u) => u.id)).toEqual([
      aIds[1],
      aIds[3],
      aIds[5],
      aIds[4],
    ]);
    expect(byId.get(b.id)?.lastUploads.map((u) => u.id)).toEqual([bOnly]);
    expect(byId.get(a.id)?.lastUploads[0]?.previewLink).toContain(newest.preview_key);
  });
});
