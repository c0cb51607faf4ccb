// Test data for the server suite. Each factory writes through the real services (the account
// writer, the project service, the upload pipeline), so a row made here has the counts, dates
// and stored files a row made by the app would have. Every override is optional: a test names
// only what it is about.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeTransaction } from '../src/db/database.js';
import { TEMP_UPLOAD_SUFFIX } from '../src/media/temp-files.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { createComment } from '../src/modules/comments/comments.service.js';
import { addProject, setProjectArchived } from '../src/modules/projects/projects.service.js';
import { insertNewReport } from '../src/modules/reports/reports.service.js';
import { storeUpload } from '../src/modules/uploads/uploads.service.js';
import { createAccount } from '../src/modules/users/users.service.js';
import type { TestContext } from './helpers.js';
import { jpegWithExif } from './images.js';

let seq = 0;
const next = () => {
  seq += 1;
  return `${seq}-${randomBytes(3).toString('hex')}`;
};

/** The password of every test user unless a test picks another. */
export const DEFAULT_PASSWORD = 'correct horse battery staple';
// Hashing is slow on purpose; the default password is hashed once per test file.
let defaultHash: Promise<string> | null = null;

export interface TestUser {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  password: string;
  isAdmin: boolean;
}

export type UserOverrides = Partial<Omit<TestUser, 'id'>> & { isActive?: boolean };

/**
 * An account, made by the users service's account writer. The password is hashed here rather
 * than checked against the policy, so a test may give a user any password it needs.
 */
export async function buildUser(
  ctx: Pick<TestContext, 'db'>,
  overrides: UserOverrides = {},
): Promise<TestUser> {
  const n = next();
  const password = overrides.password ?? DEFAULT_PASSWORD;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const passwordHash =
    password === DEFAULT_PASSWORD ? await defaultHash : await hashPassword(password);
  const user = {
    email: overrides.email ?? `user${n}@example.com`,
    firstname: overrides.firstname ?? `First${seq}`,
    lastname: overrides.lastname ?? `Last${seq}`,
    isAdmin: overrides.isAdmin ?? false,
    password,
  };
  const id = await createAccount(
    ctx.db,
    { ...user, isActive: overrides.isActive !== false },
    { passwordHash },
  );
  return { id, ...user, email: user.email.toLowerCase() };
}

export interface TestProject {
  id: number;
  name: string;
  creatorId: number;
}

export interface ProjectOverrides {
  /** Who creates it; a new user unless given. */
  creatorId?: number;
  name?: string;
  location?: string;
  description?: string;
  latitude?: number | null;
  longitude?: number | null;
  /** Creation and activity date; now unless given. */
  createdAt?: string;
}

/** A project, added by the projects service (the creator's project count follows). */
export async function buildProject(
  ctx: Pick<TestContext, 'db'>,
  overrides: ProjectOverrides = {},
): Promise<TestProject> {
  const creatorId = overrides.creatorId ?? (await buildUser(ctx)).id;
  const name = overrides.name ?? `Project ${next()}`;
  const id = await writeTransaction(ctx.db, (trx) =>
    addProject(
      trx,
      {
        name,
        location: overrides.location ?? 'Hamburg, Germany',
        description: overrides.description ?? '',
        latitude: overrides.latitude ?? null,
        longitude: overrides.longitude ?? null,
      },
      creatorId,
      overrides.createdAt,
    ),
  );
  return { id, name, creatorId };
}

export interface UploadOverrides {
  /** The project; a new one unless given. */
  projectId?: number;
  /** The uploader; the project's creator (or a new user) unless given. */
  creatorId?: number;
  name?: string;
  description?: string;
  /** Creation date; now unless given. The project's activity date follows it. */
  createdAt?: string;
  /** The photo; a small JPEG with camera EXIF unless given. */
  file?: Buffer;
  /** The uploader's idempotency key; none unless given. */
  clientId?: string;
  /** The photo's tags, already normalised (`normalizeTag`); none unless given. */
  tags?: string[];
}

let defaultPhoto: Promise<Buffer> | null = null;

/**
 * An upload, stored by the upload pipeline (`storeUpload`): the image is decoded, its preview,
 * formatted image and original are written to the context's storage, and the row and the
 * stored counts commit together. Answers the upload's id.
 */
export async function buildUpload(
  ctx: Pick<TestContext, 'db' | 'storage' | 'images' | 'config'>,
  overrides: UploadOverrides = {},
): Promise<number> {
  let { projectId, creatorId } = overrides;
  if (projectId === undefined) {
    const project = await buildProject(ctx, { creatorId });
    projectId = project.id;
    creatorId ??= project.creatorId;
  }
  creatorId ??= (await buildUser(ctx)).id;
  defaultPhoto ??= jpegWithExif();
  const file = overrides.file ?? (await defaultPhoto);
  const dir = ctx.config.uploads.tempDir;
  await mkdir(dir, { recursive: true });
  const filePath = path.join(dir, `factory-${next()}${TEMP_UPLOAD_SUFFIX}`);
  await writeFile(filePath, file);
  try {
    return await storeUpload(ctx, {
      filePath,
      bytes: file.length,
      name: overrides.name ?? `upload ${seq}`,
      description: overrides.description ?? '',
      projectId,
      creatorId,
      createdAt: overrides.createdAt,
      clientId: overrides.clientId,
      tags: overrides.tags,
    });
  } finally {
    await rm(filePath, { force: true });
  }
}

/**
 * Archives a project through the projects service, as `byUserId` (its creator unless given) and
 * at `at` (now unless given). No permission check: the archive call's own tests cover those.
 */
export async function archiveProject(
  ctx: Pick<TestContext, 'db'>,
  id: number,
  options: { byUserId?: number; at?: string } = {},
): Promise<void> {
  const byUserId =
    options.byUserId ??
    (
      await ctx.db
        .selectFrom('projects')
        .select('creator_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).creator_id;
  await setProjectArchived(ctx.db, id, byUserId, options.at);
}

/**
 * Sets a project's activity date, so list order can be pinned without waiting for the clock.
 * Test-only: the app moves it through the project and upload services.
 */
export async function setProjectActivity(
  ctx: Pick<TestContext, 'db'>,
  id: number,
  updatedAt: string,
): Promise<void> {
  await ctx.db
    .updateTable('projects')
    .set({ updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

/** Sets an upload's last-change date, so "changed after" can be checked without a clock race. */
export async function setUploadUpdatedAt(
  ctx: Pick<TestContext, 'db'>,
  id: number,
  updatedAt: string,
): Promise<void> {
  await ctx.db.updateTable('uploads').set({ updated_at: updatedAt }).where('id', '=', id).execute();
}

export interface CommentOverrides {
  /** The upload; a new one unless given. */
  uploadId?: number;
  /** The author; a new user unless given. */
  authorId?: number;
  /** The text; "Comment N" unless given (give a validated text: trimmed, within the limits). */
  body?: string;
  /** When it was written; now unless given. */
  at?: string;
}

/**
 * A comment, written by the comments service (`createComment`): the upload's comment count, the
 * members it names, and its events and notifications commit with it. Answers the comment's id.
 */
export async function buildComment(
  ctx: Pick<TestContext, 'db' | 'storage' | 'images' | 'config'>,
  overrides: CommentOverrides = {},
): Promise<number> {
  const uploadId = overrides.uploadId ?? (await buildUpload(ctx));
  const authorId = overrides.authorId ?? (await buildUser(ctx)).id;
  return createComment(ctx.db, {
    uploadId,
    authorId,
    body: overrides.body ?? `Comment ${next()}`,
    ...(overrides.at ? { at: overrides.at } : {}),
  });
}

export interface ReportOverrides {
  /** The project; the first photo's, or a new one, unless given. */
  projectId?: number;
  /** The author; the project's creator unless given. */
  authorId?: number;
  /** The photos, in order; one new photo of the project unless given. */
  uploadIds?: number[];
  /** Captions by position (missing ones empty). */
  captions?: string[];
  title?: string;
  type?: 'daily' | 'safety' | 'defects' | 'custom';
  intro?: string;
  layout?: 1 | 2 | 4;
  from?: string;
  to?: string;
  timeZone?: string;
  teamName?: string;
}

/**
 * A report, written by the reports service (`insertNewReport`: the project open, every photo in
 * it), `queued` for its PDF: the app's queue makes it when it next looks (a test that needs the
 * PDF waits for `ready`). Answers the report's id.
 */
export async function buildReport(
  ctx: Pick<TestContext, 'db' | 'storage' | 'images' | 'config'>,
  overrides: ReportOverrides = {},
): Promise<number> {
  let projectId = overrides.projectId;
  if (projectId === undefined && overrides.uploadIds?.[0] !== undefined)
    projectId = (
      await ctx.db
        .selectFrom('uploads')
        .select('project_id')
        .where('id', '=', overrides.uploadIds[0])
        .executeTakeFirstOrThrow()
    ).project_id;
  projectId ??= (await buildProject(ctx, { creatorId: overrides.authorId })).id;
  const authorId =
    overrides.authorId ??
    (
      await ctx.db
        .selectFrom('projects')
        .select('creator_id')
        .where('id', '=', projectId)
        .executeTakeFirstOrThrow()
    ).creator_id;
  const uploadIds = overrides.uploadIds ?? [await buildUpload(ctx, { projectId })];
  const today = new Date().toISOString().slice(0, 10);
  return insertNewReport(
    ctx.db,
    {
      projectId,
      type: overrides.type ?? 'daily',
      title: overrides.title ?? `Report ${next()}`,
      intro: overrides.intro ?? '',
      from: overrides.from ?? today,
      to: overrides.to ?? today,
      layout: overrides.layout ?? 2,
      photos: uploadIds.map((uploadId, i) => ({
        uploadId,
        caption: overrides.captions?.[i] ?? '',
      })),
      ...(overrides.timeZone ? { timeZone: overrides.timeZone } : {}),
      ...(overrides.teamName !== undefined ? { teamName: overrides.teamName } : {}),
    },
    authorId,
  );
}
