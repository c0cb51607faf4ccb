// Exactly-once uploads (issue 12): `createUploadDto.clientId` is the client's idempotency key for
// one photo, unique per uploader. A repeat answers the first upload and stores nothing; a repeat
// racing the first call loses at the unique index and answers the winner's upload; the counts
// move once. Includes a connection cut after the server committed, before the client read.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { ErrorResponse, Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveProject, buildProject, type TestProject } from '../../../test/factories.js';
import { createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif, photoJpeg } from '../../../test/images.js';
import {
  dtoPart,
  filePart,
  multipartBody,
  postUpload,
  storedKeys,
  tempFiles,
  uploadRowCount,
  type FormPart,
} from '../../../test/uploads.js';
import { storeUpload } from './uploads.service.js';

let ctx: TestContext;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let alice: Member;
let bob: Member;
let project: TestProject;
let photo: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await signedInUser(ctx);
  bob = await signedInUser(ctx);
  project = await buildProject(ctx, { creatorId: alice.id, name: 'Riverside Block C' });
  photo = await jpegWithExif();
});
afterAll(async () => ctx?.close());

interface Dto {
  name?: string;
  description?: string;
  projectId?: number;
  clientId?: unknown;
}

/** The form as the web app sends it: the file part, then the JSON part. */
const form = (dto: Dto, file: Buffer = photo): FormPart[] => [
  filePart(file),
  dtoPart({ name: '', description: '', projectId: project.id, ...dto }),
];

async function upload(member: Member, dto: Dto, file?: Buffer): Promise<Upload> {
  const res = await postUpload(ctx, member.token, form(dto, file));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>();
}

/** The stored counts the one counter writer keeps: the project's and the member's. */
async function counts(projectId = project.id, userId = alice.id) {
  const p = await ctx.db
    .selectFrom('projects')
    .select('uploads_count')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const u = await ctx.db
    .selectFrom('users')
    .select('uploads_count')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { project: Number(p.uploads_count), user: Number(u.uploads_count) };
}

/** Rows carrying `clientId`, whoever made them. */
async function rowsWithKey(clientId: string) {
  return ctx.db
    .selectFrom('uploads')
    .select(['id', 'creator_id', 'project_id'])
    .where('client_id', '=', clientId)
    .execute();
}

/**
 * Nothing left behind: every stored object belongs to a row (what the sweeper would call an
 * orphan is any object no row references) and the temp folder is empty.
 */
async function expectNoLeftovers() {
  const rows = await ctx.db
    .selectFrom('uploads')
    .select(['preview_key', 'formatted_key', 'original_key'])
    .execute();
  const referenced = rows.flatMap((r) => [r.preview_key, r.formatted_key, r.original_key]);
  expect(await storedKeys(ctx)).toEqual(referenced.sort());
  expect(tempFiles(ctx)).toEqual([]);
}

/** The answer without its signed links (signed per call), which must still name the same files. */
function withoutLinks(u: Upload) {
  const { previewLink, formatedLink, originalLink, ...rest } = u;
  const file = (link: string) => new URL(link, 'http://x').pathname;
  return { ...rest, files: [file(previewLink), file(formatedLink), file(originalLink)] };
}

describe('the same clientId in sequence', () => {
  it('answers the first upload again, with one row and the counts moved once', async () => {
    const clientId = randomUUID();
    const before = await counts();
    const first = await upload(alice, { name: 'North wall', clientId });
    const afterFirst = await counts();
    expect(afterFirst).toEqual({ project: before.project + 1, user: before.user + 1 });
    const keys = await storedKeys(ctx);

    // A retry with other text and another file: the key names the photo already stored.
    const again = await upload(
      alice,
      { name: 'Something else', description: 'changed', clientId },
      await photoJpeg(40, 30),
    );
    expect(withoutLinks(again)).toEqual(withoutLinks(first));
    expect(again.name).toBe('North wall');
    expect(await rowsWithKey(clientId)).toEqual([
      { id: first.id, creator_id: alice.id, project_id: project.id },
    ]);
    expect(await counts()).toEqual(afterFirst);
    expect(await storedKeys(ctx)).toEqual(keys);
    await expectNoLeftovers();
  });

  it('answers the first upload when the JSON part comes before the file too', async () => {
    const clientId = `key_${'x'.repeat(4)}`; // 8 characters, the shortest key
    const first = await upload(alice, { clientId });
    const rows = await uploadRowCount(ctx);
    const res = await postUpload(ctx, alice.token, [
      dtoPart({ projectId: project.id, clientId }),
      filePart(photo),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Upload>().id).toBe(first.id);
    expect(await uploadRowCount(ctx)).toBe(rows);
    await expectNoLeftovers();
  });

  it('answers the existing upload even when the repeat names another project', async () => {
    const clientId = 'k'.repeat(64); // the longest key
    const first = await upload(alice, { clientId });
    const other = await buildProject(ctx, { creatorId: alice.id });
    const before = { first: await counts(), other: await counts(other.id) };

    const moved = await upload(alice, { clientId, projectId: other.id });
    expect(moved.id).toBe(first.id);
    expect(moved.project).toEqual({ id: project.id, name: project.name, archived: false });
    // Even a project that is closed (or gone) meanwhile: the photo is already stored.
    await archiveProject(ctx, other.id);
    expect((await upload(alice, { clientId, projectId: other.id })).id).toBe(first.id);
    expect((await upload(alice, { clientId, projectId: 999_999 })).id).toBe(first.id);

    expect(await counts()).toEqual(before.first);
    expect(await counts(other.id)).toEqual(before.other);
    expect(await rowsWithKey(clientId)).toHaveLength(1);
    await expectNoLeftovers();
  });

  it('stores a new upload under a key whose upload was deleted', async () => {
    const clientId = randomUUID();
    const first = await upload(alice, { clientId });
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/upload/delete/${first.id}`,
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(del.statusCode, del.body).toBe(200);
    const second = await upload(alice, { clientId });
    expect(second.id).not.toBe(first.id);
    expect(await rowsWithKey(clientId)).toHaveLength(1);
  });
});

describe('the same clientId concurrently', () => {
  it('answers every request with one upload, one row, the counts moved once, nothing orphaned', async () => {
    const clientId = randomUUID();
    const before = await counts();
    const answers = await Promise.all(
      [0, 1, 2].map(() => postUpload(ctx, alice.token, form({ clientId }))),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const ids = answers.map((res) => res.json<Upload>().id);
    expect(new Set(ids).size).toBe(1);
    expect(await rowsWithKey(clientId)).toEqual([
      { id: ids[0], creator_id: alice.id, project_id: project.id },
    ]);
    expect(await counts()).toEqual({ project: before.project + 1, user: before.user + 1 });
    await expectNoLeftovers();
  });

  it('the loser of the race at the unique index answers the winner and removes its files', async () => {
    // The pipeline called directly, past the form's early lookup: the second insert is the one a
    // concurrent repeat makes after the first committed.
    const clientId = randomUUID();
    const input = async () => {
      const filePath = path.join(ctx.dataDir, `race-${randomUUID()}.jpg`);
      writeFileSync(filePath, photo);
      return {
        filePath,
        bytes: photo.length,
        name: '',
        description: '',
        projectId: project.id,
        creatorId: alice.id,
        clientId,
      };
    };
    const before = await counts();
    const winner = await storeUpload(ctx, await input());
    const keys = await storedKeys(ctx);
    const loser = await storeUpload(ctx, await input());
    expect(loser).toBe(winner);
    expect(await storedKeys(ctx)).toEqual(keys);
    expect(await rowsWithKey(clientId)).toHaveLength(1);
    expect(await counts()).toEqual({ project: before.project + 1, user: before.user + 1 });

    // Both at once, on a key of their own.
    const racing = randomUUID();
    const both = await Promise.all([
      storeUpload(ctx, { ...(await input()), clientId: racing }),
      storeUpload(ctx, { ...(await input()), clientId: racing }),
    ]);
    expect(both[0]).toBe(both[1]);
    expect(await rowsWithKey(racing)).toHaveLength(1);
    expect(await counts()).toEqual({ project: before.project + 2, user: before.user + 2 });
    await expectNoLeftovers();
  });
});

describe('keys are per member', () => {
  it('gives another member with the same key an upload of their own', async () => {
    const clientId = randomUUID();
    const bobProject = await buildProject(ctx, { creatorId: bob.id });
    const mine = await upload(alice, { clientId });
    const bobBefore = await counts(bobProject.id, bob.id);
    const theirs = await upload(bob, { clientId, projectId: bobProject.id });
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.creator.id).toBe(bob.id);
    expect(await counts(bobProject.id, bob.id)).toEqual({
      project: bobBefore.project + 1,
      user: bobBefore.user + 1,
    });
    // Bob's repeat answers Bob's upload, never Alice's.
    expect((await upload(bob, { clientId, projectId: bobProject.id })).id).toBe(theirs.id);
    expect((await rowsWithKey(clientId)).map((r) => r.creator_id).sort()).toEqual(
      [alice.id, bob.id].sort(),
    );
  });
});

describe('a malformed clientId', () => {
  it.each([
    ['too short', 'abc1234'],
    ['too long', 'a'.repeat(65)],
    ['a space', 'abcd efgh'],
    ['a slash', '../../etc/passwd'],
    ['non-ASCII letters', 'schlüssel-123'],
    ['empty', ''],
    ['a number', 12345678],
    ['null', null],
  ])('is refused with 400 and says what a key looks like: %s', async (_, clientId) => {
    const rows = await uploadRowCount(ctx);
    const keys = await storedKeys(ctx);
    const res = await postUpload(ctx, alice.token, form({ clientId }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<ErrorResponse>()).toMatchObject({
      code: 'validation_failed',
      message: 'clientId must be 8 to 64 letters, digits, "-" or "_" (e.g. a UUID), or left out.',
    });
    expect(await uploadRowCount(ctx)).toBe(rows);
    expect(await storedKeys(ctx)).toEqual(keys);
    expect(tempFiles(ctx)).toEqual([]);
  });
});

describe('without a clientId', () => {
  it('stores every upload, as before', async () => {
    const before = await counts();
    const first = await upload(alice, {});
    const second = await upload(alice, {});
    expect(second.id).not.toBe(first.id);
    expect(await counts()).toEqual({ project: before.project + 2, user: before.user + 2 });
    const rows = await ctx.db
      .selectFrom('uploads')
      .select('client_id')
      .where('id', 'in', [first.id, second.id])
      .execute();
    expect(rows).toEqual([{ client_id: null }, { client_id: null }]);
  });
});

describe('a connection cut after the server committed (real HTTP)', () => {
  it('the same request again answers the same upload, with one row', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const clientId = randomUUID();
    const before = await counts();

    // Sent over a raw socket that never reads: the answer is left unread when it is cut.
    const first = multipartBody(form({ name: 'Cut off', clientId }));
    const socket = connect({ host: '127.0.0.1', port });
    socket.pause();
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => {});
    socket.write(
      [
        'POST /api/upload/autoupload HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${alice.token}`,
        `Content-Type: ${first.headers['content-type']}`,
        `Content-Length: ${first.payload.length}`,
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(first.payload);

    const deadline = Date.now() + 20_000;
    let committed = await rowsWithKey(clientId);
    while (committed.length === 0) {
      expect(Date.now(), 'the first upload never committed').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 10));
      committed = await rowsWithKey(clientId);
    }
    socket.destroy();

    // The client never saw an answer, so it sends the photo again (a new body, same key).
    const retry = multipartBody(form({ name: 'Cut off', clientId }));
    const res = await fetch(`http://127.0.0.1:${port}/api/upload/autoupload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, ...retry.headers },
      body: new Uint8Array(retry.payload),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const answered = JSON.parse(text) as Upload;
    expect(answered.id).toBe(committed[0]!.id);
    expect(answered.name).toBe('Cut off');
    expect(await rowsWithKey(clientId)).toHaveLength(1);
    expect(await counts()).toEqual({ project: before.project + 1, user: before.user + 1 });
    // The first request's handler may still be finishing (its temp file, its answer).
    await expect.poll(() => tempFiles(ctx), { timeout: 5_000 }).toEqual([]);
    await expectNoLeftovers();
  });
});
