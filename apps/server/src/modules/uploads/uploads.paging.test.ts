import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { buildProject, buildUpload } from '../../../test/factories.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let erin: Member;
let frank: Member;
let projectA: number;
let projectB: number;

/** Every upload inserted here, as the feeds should order them. */
interface Row {
  id: number;
  projectId: number;
  creatorId: number;
  createdAt: string;
}
const rows: Row[] = [];

const BASE = Date.parse('2026-03-01T08:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

async function insert(projectId: number, creatorId: number, createdAt: string): Promise<number> {
  const id = await buildUpload(ctx, { projectId, creatorId, createdAt });
  rows.push({ id, projectId, creatorId, createdAt });
  return id;
}

/** Newest first, ties on created_at broken by the higher id. */
function feedOrder(filter: (row: Row) => boolean): number[] {
  return rows
    .filter(filter)
    .sort((a, b) =>
      a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1,
    )
    .map((row) => row.id);
}

async function page(url: string, token = erin.token) {
  const res = await api(ctx, { method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number; createdAt: string }[]).map((u) => u.id);
}

/** Follows `before=<last id>` while pages come back full; answers every page. */
async function walk(base: string, limit: number): Promise<number[][]> {
  const pages: number[][] = [];
  let before: number | undefined;
  for (;;) {
    const query = `limit=${limit}${before === undefined ? '' : `&before=${before}`}`;
    const ids = await page(`${base}?${query}`);
    pages.push(ids);
    if (ids.length < limit) return pages;
    before = ids[ids.length - 1];
    expect(pages.length).toBeLessThan(50);
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  erin = await signedInUser(ctx, { firstname: 'Erin', lastname: 'Paging' });
  frank = await signedInUser(ctx, { firstname: 'Frank', lastname: 'Paging' });
  projectA = (await buildProject(ctx, { creatorId: erin.id, name: 'Paging A' })).id;
  projectB = (await buildProject(ctx, { creatorId: erin.id, name: 'Paging B' })).id;

  // Project A: erin's uploads at distinct times, inserted out of order, and two pairs sharing a
  // created_at (the id decides their order); frank's uploads are interleaved.
  for (const minutes of [5, 1, 9, 3, 7, 2, 8]) await insert(projectA, erin.id, at(minutes));
  await insert(projectA, erin.id, at(4));
  await insert(projectA, erin.id, at(4));
  await insert(projectA, frank.id, at(6));
  await insert(projectA, frank.id, at(6));
  await insert(projectA, frank.id, at(10));
  // Project B: erin's only, so her member feed spans two projects.
  for (const minutes of [0, 4, 11]) await insert(projectB, erin.id, at(minutes));
});
afterAll(async () => ctx.close());

describe('GET /api/upload/project/{id}/latest paging', () => {
  const url = () => `/api/upload/project/${projectA}/latest`;
  const expected = () => feedOrder((row) => row.projectId === projectA);

  it('answers the whole feed as one array without paging parameters', async () => {
    expect(await page(url())).toEqual(expected());
    expect(expected()).toHaveLength(12);
  });

  it.each([1, 2, 3, 4, 5, 7, 12, 13])(
    'walks the whole feed with limit=%i, with no gaps or repeats',
    async (limit) => {
      const pages = await walk(url(), limit);
      const all = pages.flat();
      expect(all).toEqual(expected());
      expect(new Set(all).size).toBe(all.length);
      for (const ids of pages.slice(0, -1)) expect(ids).toHaveLength(limit);
      // A feed that divides evenly ends with an empty page, not an error.
      if (expected().length % limit === 0) expect(pages.at(-1)).toEqual([]);
    },
  );

  it('orders uploads that share a created_at by id, newest id first, across a page break', async () => {
    const ties = rows.filter((r) => r.projectId === projectA && r.createdAt === at(4));
    expect(ties).toHaveLength(2);
    const [low, high] = ties.map((r) => r.id).sort((a, b) => a - b) as [number, number];
    const order = expected();
    expect(order.indexOf(high)).toBe(order.indexOf(low) - 1);
    // A page that ends on the first of the pair continues with the second.
    expect(await page(`${url()}?limit=1&before=${high}`)).toEqual([low]);
    // And a page that ends on the second skips both.
    const afterLow = await page(`${url()}?limit=1&before=${low}`);
    expect(afterLow).toEqual([order[order.indexOf(low) + 1]]);
  });

  it('answers an empty page after the oldest upload', async () => {
    const order = expected();
    expect(await page(`${url()}?before=${order.at(-1)}`)).toEqual([]);
  });

  it('still answers 404 for an unknown project, with or without paging', async () => {
    for (const query of ['', '?limit=5', `?before=${expected()[0]}`]) {
      const res = await api(ctx, {
        method: 'GET',
        url: `/api/upload/project/999999/latest${query}`,
        token: erin.token,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/project was not found/i);
    }
  });
});

describe('GET /api/upload/user/{id}/latest paging', () => {
  const url = (id = erin.id) => `/api/upload/user/${id}/latest`;
  const expected = () => feedOrder((row) => row.creatorId === erin.id);

  it('answers the whole feed across projects without paging parameters', async () => {
    expect(await page(url())).toEqual(expected());
    expect(expected()).toHaveLength(12);
  });

  it.each([1, 3, 5, 12])(
    'walks the whole feed with limit=%i, with no gaps or repeats',
    async (limit) => {
      const all = (await walk(url(), limit)).flat();
      expect(all).toEqual(expected());
      expect(new Set(all).size).toBe(all.length);
    },
  );

  it('pages only the member’s own uploads', async () => {
    const frankIds = (await walk(url(frank.id), 2)).flat();
    expect(frankIds).toEqual(feedOrder((row) => row.creatorId === frank.id));
  });

  it('still answers 404 for an unknown member', async () => {
    const res = await api(ctx, { method: 'GET', url: `${url(999999)}?limit=5`, token: erin.token });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not found/i);
  });
});

describe('the default page size', () => {
  it('answers 100 uploads by default and the rest with before', async () => {
    // Someone else's, so the other feeds here stay as they are.
    const gina = await signedInUser(ctx, { firstname: 'Gina', lastname: 'Paging' });
    const projectC = (await buildProject(ctx, { creatorId: gina.id, name: 'Paging C' })).id;
    const ids: number[] = [];
    for (let i = 0; i < 103; i += 1)
      ids.push(
        await buildUpload(ctx, { projectId: projectC, creatorId: gina.id, createdAt: at(100 + i) }),
      );
    // created_at grows with the insert order, so the newest is the last inserted.
    const order = [...ids].reverse();
    const first = await page(`/api/upload/project/${projectC}/latest`);
    expect(first).toEqual(order.slice(0, 100));
    const rest = await page(`/api/upload/project/${projectC}/latest?before=${first.at(-1)}`);
    expect(rest).toEqual(order.slice(100));
  });
});

describe('paging validation', () => {
  const feeds = () => [
    `/api/upload/project/${projectA}/latest`,
    `/api/upload/user/${erin.id}/latest`,
  ];

  it.each([
    ['limit=0', /limit must be at least 1/],
    ['limit=101', /limit must be at most 100/],
    ['limit=abc', /limit must be a number/],
    ['limit=2.5', /limit must be a whole number/],
    ['limit=', /limit must be at least 1/],
    ['before=abc', /before must be an upload id/],
    ['before=0', /before must be a positive number/],
    ['before=-3', /before must be a positive number/],
    ['before=1.5', /before must be a whole number/],
    ['before=99999999999', /before is too large/],
  ])('refuses %s with 400 and a message', async (query, message) => {
    for (const feed of feeds()) {
      const res = await api(ctx, { method: 'GET', url: `${feed}?${query}`, token: erin.token });
      expect(res.statusCode, `${feed}?${query}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('refuses an unknown before id with 400', async () => {
    const unknown = Math.max(...rows.map((r) => r.id)) + 100_000;
    for (const feed of feeds()) {
      const res = await api(ctx, {
        method: 'GET',
        url: `${feed}?before=${unknown}`,
        token: erin.token,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`no upload ${unknown}`));
    }
  });

  it('answers 401 when signed out', async () => {
    for (const feed of feeds()) {
      const res = await api(ctx, { method: 'GET', url: `${feed}?limit=5` });
      expect(res.statusCode).toBe(401);
    }
  });
});
