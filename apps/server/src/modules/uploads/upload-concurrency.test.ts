// Concurrency suite (issue 10, suites §3): many clients upload, edit, move and delete at once over
// real HTTP, then the database, the storage and the API must agree: nothing lost, nothing
// duplicated, no orphaned objects or temp files, and every uploads count equal to its rows.
// The reduced form runs in `npm test`; the soak form sets CONCURRENCY_UPLOADS=1000 and
// CONCURRENCY_CLIENTS=50.
import type { AddressInfo } from 'node:net';
import type { ProjectRow, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positiveIntFromEnv } from '../../../test/env.js';
import { buildProject, type TestProject } from '../../../test/factories.js';
import {
  createTestContext,
  signedInUser,
  testDialect,
  type TestContext,
} from '../../../test/helpers.js';
import { photoJpeg } from '../../../test/images.js';
import { dtoPart, filePart, multipartBody, storedKeys, tempFiles } from '../../../test/uploads.js';

const UPLOADS = positiveIntFromEnv('CONCURRENCY_UPLOADS', 200);
const CLIENTS = positiveIntFromEnv('CONCURRENCY_CLIENTS', 20);
const MEMBERS = 5;
const PROJECTS = 4;
// Fewer waiting slots than clients, so the busy answer (503 + Retry-After) and the clients'
// retries are part of every run rather than only of unlucky ones.
const MAX_QUEUE = 8;
// Retry-After says 5 s, meant for a person's phone; the test waits a short jittered moment so the
// run stays short, and gives up after this many tries so a stuck queue fails instead of hanging.
const MAX_BUSY_RETRIES = 200;

interface Expected {
  id: number;
  name: string;
  description: string;
  projectId: number;
  creatorId: number;
  deleted: boolean;
}

interface Tally {
  edits: number;
  moves: number;
  deletes: number;
  busyRetries: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ctx: TestContext;
let base: string;
let members: { id: number; token: string }[];
let projects: TestProject[];
let photo: Buffer;
/** The server's error log: a 500 in the run is reported with the error behind it. */
const serverErrors: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext(
    { LOG_LEVEL: 'error' },
    {
      images: { maxQueue: MAX_QUEUE },
      logDestination: { write: (line: string) => void serverErrors.push(line) },
    },
  );
  members = [];
  for (let i = 0; i < MEMBERS; i++) members.push(await signedInUser(ctx));
  projects = [];
  for (let i = 0; i < PROJECTS; i++) {
    projects.push(await buildProject(ctx, { creatorId: members[i % MEMBERS]!.id }));
  }
  // Small, so the run measures the server's bookkeeping rather than the image library.
  photo = await photoJpeg(64, 48);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await ctx?.close();
});

async function call(
  token: string,
  method: string,
  url: string,
  body?: { payload: Buffer | string; headers: Record<string, string> },
): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body?.headers ?? {}) },
    body: body
      ? typeof body.payload === 'string'
        ? body.payload
        : new Uint8Array(body.payload)
      : undefined,
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const json = (payload: unknown) => ({
  payload: JSON.stringify(payload),
  headers: { 'content-type': 'application/json' },
});

async function upload(
  member: { id: number; token: string },
  projectId: number,
  name: string,
  tally: Tally,
): Promise<Upload> {
  for (let attempt = 0; ; attempt++) {
    // A new body (and boundary) per try, as a client resending its form would.
    const body = multipartBody([filePart(photo), dtoPart({ name, description: '', projectId })]);
    const res = await call(member.token, 'POST', '/api/upload/autoupload', body);
    if (res.status === 503) {
      expect(res.headers.get('retry-after'), res.text).toMatch(/^\d+$/);
      if (attempt >= MAX_BUSY_RETRIES) throw new Error(`still busy after ${attempt} retries`);
      tally.busyRetries += 1;
      await sleep(10 + Math.random() * 40);
      continue;
    }
    expect(res.status, `upload ${name}: ${res.text}`).toBe(200);
    return JSON.parse(res.text) as Upload;
  }
}

/**
 * One client: a member uploading its share, and between uploads editing, moving and deleting
 * uploads it already saw acknowledged. Each client touches only its own uploads, so what each
 * row must look like at the end is known exactly.
 */
async function runClient(
  index: number,
  count: number,
  expected: Map<number, Expected>,
  tally: Tally,
): Promise<void> {
  const member = members[index % MEMBERS]!;
  const mine: Expected[] = [];
  for (let k = 1; k <= count; k++) {
    const projectId = projects[(index + k) % PROJECTS]!.id;
    const name = `c${index}-u${k}`;
    const created = await upload(member, projectId, name, tally);
    expect(created.name).toBe(name);
    expect(created.project.id).toBe(projectId);
    const entry: Expected = {
      id: created.id,
      name,
      description: '',
      projectId,
      creatorId: member.id,
      deleted: false,
    };
    expected.set(created.id, entry);
    mine.push(entry);

    if (k % 3 === 0) {
      const target = mine[mine.length - 2]!;
      if (!target.deleted) {
        const next = { name: `${target.name}-edited`, description: `edited by client ${index}` };
        const res = await call(
          member.token,
          'PATCH',
          `/api/upload/update/no-image/${target.id}`,
          json({ upload: next }),
        );
        expect(res.status, res.text).toBe(200);
        Object.assign(target, next);
        tally.edits += 1;
      }
    }
    if (k % 4 === 0) {
      const target = mine[mine.length - 1]!;
      // Moves flow towards the first projects, so a move whose counts were not carried over
      // cannot hide behind one going the other way.
      const to = projects[target.projectId === projects[0]!.id ? 1 : 0]!.id;
      const res = await call(
        member.token,
        'PATCH',
        `/api/upload/update/no-image/${target.id}`,
        json({ upload: { projectId: to } }),
      );
      // Opposite moves run at the same time; each must succeed (no deadlock on PostgreSQL).
      expect(res.status, res.text).toBe(200);
      expect((JSON.parse(res.text) as Upload).project.id).toBe(to);
      target.projectId = to;
      tally.moves += 1;
    }
    if (k % 5 === 0) {
      const target = mine[mine.length - 3]!;
      if (!target.deleted) {
        const res = await call(member.token, 'DELETE', `/api/upload/delete/${target.id}`);
        expect(res.status, res.text).toBe(200);
        target.deleted = true;
        tally.deletes += 1;
      }
    }
  }
}

function countBy<T>(items: T[], key: (item: T) => number): Map<number, number> {
  const counts = new Map<number, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

describe('concurrent uploads, edits, moves and deletes', () => {
  it(
    `keeps ${UPLOADS} uploads from ${CLIENTS} clients consistent`,
    async () => {
      const expected = new Map<number, Expected>();
      const tally: Tally = { edits: 0, moves: 0, deletes: 0, busyRetries: 0 };
      const started = performance.now();
      const shares = Array.from(
        { length: CLIENTS },
        (_, i) => Math.floor(UPLOADS / CLIENTS) + (i < UPLOADS % CLIENTS ? 1 : 0),
      );
      const results = await Promise.allSettled(
        shares.map((count, i) => runClient(i, count, expected, tally)),
      );
      const seconds = (performance.now() - started) / 1000;
      const failures = results.filter((r) => r.status === 'rejected');
      expect(
        failures.map((f) => String(f.reason)).slice(0, 5),
        `the server's errors:\n${serverErrors.slice(0, 5).join('')}`,
      ).toEqual([]);

      console.log(
        `concurrency: ${UPLOADS} uploads, ${CLIENTS} clients, ${tally.edits} edits, ` +
          `${tally.moves} moves, ${tally.deletes} deletes, ${tally.busyRetries} 503 retries, ` +
          `${seconds.toFixed(1)} s (${testDialect})`,
      );

      expect(expected.size).toBe(UPLOADS);
      const rows = await ctx.db.selectFrom('uploads').selectAll().execute();

      // 0 duplicated: every request carried its own name, and no name came back twice.
      const names = rows.map((r) => r.name);
      expect(new Set(names).size).toBe(names.length);

      // 0 lost: exactly the acknowledged, not deleted uploads are there, as last written.
      const live = [...expected.values()].filter((e) => !e.deleted);
      expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
        live.map((e) => e.id).sort((a, b) => a - b),
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const e of live) {
        const row = byId.get(e.id)!;
        expect({
          name: row.name,
          description: row.description,
          projectId: row.project_id,
          creatorId: row.creator_id,
        }).toEqual({
          name: e.name,
          description: e.description,
          projectId: e.projectId,
          creatorId: e.creatorId,
        });
      }

      // Every row has all its media, and every stored object belongs to a row (0 orphans).
      const referenced = rows.flatMap((r) => [r.preview_key, r.formatted_key, r.original_key]);
      expect(new Set(referenced).size).toBe(referenced.length);
      expect(await storedKeys(ctx)).toEqual([...referenced].sort());
      expect(tempFiles(ctx)).toEqual([]);

      // Counters equal to the rows, in the tables and in the project list.
      const perProject = countBy(rows, (r) => r.project_id);
      const projectRows = await ctx.db
        .selectFrom('projects')
        .select(['id', 'uploads_count'])
        .execute();
      for (const p of projectRows) {
        expect({ project: p.id, count: Number(p.uploads_count) }).toEqual({
          project: p.id,
          count: perProject.get(p.id) ?? 0,
        });
      }
      const perUser = countBy(rows, (r) => r.creator_id);
      const userRows = await ctx.db.selectFrom('users').select(['id', 'uploads_count']).execute();
      for (const u of userRows) {
        expect({ user: u.id, count: Number(u.uploads_count) }).toEqual({
          user: u.id,
          count: perUser.get(u.id) ?? 0,
        });
      }
      const list = await call(members[0]!.token, 'GET', '/api/project/all/list');
      expect(list.status, list.text).toBe(200);
      const listed = new Map((JSON.parse(list.text) as ProjectRow[]).map((r) => [r[0], r[4]]));
      expect(listed.size).toBe(PROJECTS);
      for (const p of projects) expect(listed.get(p.id)).toBe(perProject.get(p.id) ?? 0);
    },
    Math.max(120_000, UPLOADS * 400),
  );
});
