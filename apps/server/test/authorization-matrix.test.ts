// The authorization matrix: every route the app registers × every kind of caller, with the
// status each cell must answer, in one table. The app's routes are collected as Fastify
// registers them, so a route added without a row here (or a row whose route went away) fails
// the first test. Expected statuses come from the spec (§6) and the route's declared access,
// not from recording what the app answers.
import { randomBytes } from 'node:crypto';
import type { Upload } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  archiveProject,
  buildComment,
  buildProject,
  buildReport,
  buildUpload,
  buildUser,
  DEFAULT_PASSWORD,
} from './factories.js';
import { api, createTestContext, login, type TestContext } from './helpers.js';
import { jpegWithExif } from './images.js';
import { waitForReport } from './reports.js';
import { dtoPart, filePart, multipartBody } from './uploads.js';

// `buildApp` makes its Fastify instance itself and is ready before a test sees it, so the route
// list is taken by wrapping the factory: the onRoute hook is in place before any route exists.
const registered = vi.hoisted(() => new Set<string>());
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<{ default: unknown }>();
  type Factory = (...args: unknown[]) => {
    addHook: (
      name: 'onRoute',
      hook: (route: { method: string | string[]; url: string }) => void,
    ) => void;
  };
  const create = actual.default as Factory;
  const wrapped = (...args: unknown[]) => {
    const app = create(...args);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.add(`${method} ${route.url}`);
    });
    return app;
  };
  return { ...actual, default: wrapped };
});

const ROLES = [
  'anonymous', // no token
  'forged', // a well-formed bearer token no session has
  'member', // signed in; not the creator of what the path names
  'owner', // signed in; created the project/upload (or is the user) the path names
  'admin',
  'deactivated', // the old token of a user an admin has since deactivated
  'expired', // a session past its absolute lifetime
] as const;
type Role = (typeof ROLES)[number];

// One row per route; columns in the order of ROLES. For `/media/*` the caller's credential is
// the signed link, not a bearer header: anonymous = the path without a signature, forged = a
// link with a made-up signature, the others = the link the role's own session was given.
// Admin powers are user management only (spec §6): an admin may not edit another member's
// project or upload. Issue 14 adds one: an admin may archive and restore any project.
// prettier-ignore
const EXPECTED: Record<string, readonly [number, number, number, number, number, number, number]> = {
  //                                      anon forged member owner admin deact expired
  'GET /api/docs':                        [200, 200,   200,   200,  200,  200,  200],
  'GET /api/health':                      [200, 200,   200,   200,  200,  200,  200],
  'GET /api/config':                      [200, 200,   200,   200,  200,  200,  200],
  'GET /api/auth/hints':                  [200, 200,   200,   200,  200,  200,  200],
  'POST /api/auth/login':                 [200, 200,   200,   200,  200,  200,  200],
  'POST /api/auth/logout':                [401, 401,   200,   200,  200,  401,  401],
  'GET /api/auth/me':                     [401, 401,   200,   200,  200,  401,  401],
  'POST /api/auth/password':              [401, 401,   200,   200,  200,  401,  401],
  'GET /api/places':                      [401, 401,   200,   200,  200,  401,  401],
  'GET /api/places/nearest':              [401, 401,   200,   200,  200,  401,  401],
  'GET /api/search':                      [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/all/list':            [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/locations':           [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/favnfol':             [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/user':                [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/bookmark':            [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/relevant/:count':     [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/id/:id':              [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/profile/:id':         [401, 401,   200,   200,  200,  401,  401],
  'POST /api/project/create':             [401, 401,   200,   200,  200,  401,  401],
  'PATCH /api/project/update/:id':        [401, 401,   403,   200,  403,  401,  401],
  'GET /api/project/:id/favor':           [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/:id/unfavor':         [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/:id/follow':          [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/:id/unfollow':        [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/archived':            [401, 401,   200,   200,  200,  401,  401],
  'POST /api/project/:id/archive':        [401, 401,   403,   200,  200,  401,  401],
  'POST /api/project/:id/restore':        [401, 401,   403,   200,  200,  401,  401],
  'GET /api/user/all':                    [401, 401,   403,   403,  200,  401,  401],
  'POST /api/user/create':                [401, 401,   403,   403,  200,  401,  401],
  'DELETE /api/user/:id':                 [401, 401,   403,   403,  200,  401,  401],
  'GET /api/user/:id/activate':           [401, 401,   403,   403,  200,  401,  401],
  'GET /api/user/profile/:id':            [401, 401,   200,   200,  200,  401,  401],
  'GET /api/user/all/profile':            [401, 401,   200,   200,  200,  401,  401],
  'POST /api/user/invite':                [401, 401,   403,   403,  200,  401,  401],
  'POST /api/user/:id/invite':            [401, 401,   403,   403,  200,  401,  401],
  // Public: the invitation link is the credential; a bearer token is not even read.
  'GET /api/invitation/:token':           [200, 200,   200,   200,  200,  200,  200],
  'POST /api/invitation/:token/accept':   [200, 200,   200,   200,  200,  200,  200],
  'POST /api/upload/autoupload':          [401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/full/:id':             [401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/latest/:count':        [401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/project/:id/latest':   [401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/project/:id/locations':[401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/user/:id/latest':      [401, 401,   200,   200,  200,  401,  401],
  'GET /api/upload/tags':                 [401, 401,   200,   200,  200,  401,  401],
  'PATCH /api/upload/update/no-image/:id':[401, 401,   403,   200,  403,  401,  401],
  'DELETE /api/upload/delete/:id':        [401, 401,   403,   200,  403,  401,  401],
  // Comments (issue 15): the owner is the comment's author; an admin may delete, not edit.
  'GET /api/upload/:id/comments':         [401, 401,   200,   200,  200,  401,  401],
  'POST /api/upload/:id/comments':        [401, 401,   201,   201,  201,  401,  401],
  'PATCH /api/comment/:id':               [401, 401,   403,   200,  403,  401,  401],
  'DELETE /api/comment/:id':              [401, 401,   403,   204,  204,  401,  401],
  'GET /api/user/mentionable':            [401, 401,   200,   200,  200,  401,  401],
  // Events and notifications (issue 15): the owner of a notification is the member it is for;
  // anyone else's is a 404, an admin's too. Muting is each member's own.
  'GET /api/events':                      [401, 401,   200,   200,  200,  401,  401],
  'GET /api/notifications':               [401, 401,   200,   200,  200,  401,  401],
  'GET /api/notifications/unread':        [401, 401,   200,   200,  200,  401,  401],
  'POST /api/notifications/:id/read':     [401, 401,   404,   200,  404,  401,  401],
  'POST /api/notifications/read-all':     [401, 401,   200,   200,  200,  401,  401],
  'GET /api/notifications/settings':      [401, 401,   200,   200,  200,  401,  401],
  'PATCH /api/notifications/settings':    [401, 401,   200,   200,  200,  401,  401],
  'GET /api/project/:id/mute':            [401, 401,   200,   200,  200,  401,  401],
  'POST /api/project/:id/mute':           [401, 401,   200,   200,  200,  401,  401],
  'POST /api/project/:id/unmute':         [401, 401,   200,   200,  200,  401,  401],
  // The workspace (issue 16): its team name, read by every member, set by admins.
  'GET /api/workspace':                   [401, 401,   200,   200,  200,  401,  401],
  'PATCH /api/workspace':                 [401, 401,   403,   403,  200,  401,  401],
  // Reports (issue 16): every member reads them; the owner is the report's author, who with an
  // admin re-generates, deletes and shares it. A shared link is public: its token is the credential.
  'POST /api/report':                     [401, 401,   202,   202,  202,  401,  401],
  'GET /api/report/latest':               [401, 401,   200,   200,  200,  401,  401],
  'GET /api/report/:id':                  [401, 401,   200,   200,  200,  401,  401],
  'POST /api/report/:id/regenerate':      [401, 401,   403,   202,  202,  401,  401],
  'DELETE /api/report/:id':               [401, 401,   403,   204,  204,  401,  401],
  'GET /api/report/:id/links':            [401, 401,   403,   200,  200,  401,  401],
  'POST /api/report/:id/links':           [401, 401,   403,   201,  201,  401,  401],
  'DELETE /api/report/link/:id':          [401, 401,   403,   204,  204,  401,  401],
  'GET /api/report/shared/:token':        [200, 200,   200,   200,  200,  200,  200],
  'GET /media/*':                         [403, 403,   200,   200,  200,  403,  403],
};

/** A caller: the bearer token it sends (none for anonymous) and, when signed in, who it is. */
interface Caller {
  role: Role;
  token: string | undefined;
  userId: number | null;
}

interface Person {
  id: number;
  email: string;
  token: string;
}

/** Shared data for the cells that change nothing another cell depends on. */
interface World {
  member: Person;
  owner: Person;
  admin: Person;
  deactivatedToken: string;
  expiredToken: string;
  /** Of the owner's project and upload. */
  projectId: number;
  uploadId: number;
  /** The owner's report of that upload, with its PDF, and the token of a public link to it. */
  reportId: number;
  sharedToken: string;
  /** The upload's preview link as each signed-in role's session got it. */
  links: Record<Role, string>;
  /** A user whose credentials the login cells send. */
  loginEmail: string;
}

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

// Long and unrelated to the user's names, so the password policy accepts it.
const NEW_PASSWORD = 'granite scaffold harbour 7731 lantern';

let ctx: TestContext;
let world: World;
let photo: Buffer;

async function person(options: { isAdmin?: boolean } = {}): Promise<Person> {
  const user = await buildUser(ctx, { isAdmin: options.isAdmin ?? false });
  return { id: user.id, email: user.email, token: await login(ctx, user) };
}

async function previewLink(token: string, uploadId: number): Promise<string> {
  const res = await api(ctx, { method: 'GET', url: `/api/upload/full/${uploadId}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>().previewLink;
}

const json = (payload: unknown) => ({ payload, headers: { 'content-type': 'application/json' } });

/** A member the admin has just invited, and the token of their link. */
async function invitation(): Promise<{ userId: number; token: string }> {
  const res = await api(ctx, {
    method: 'POST',
    url: '/api/user/invite',
    token: world.admin.token,
    payload: {
      user: {
        email: `invitee-${randomBytes(4).toString('hex')}@example.com`,
        firstname: 'Invitee',
        lastname: 'Person',
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const link = res.json<{ user: { id: number }; path: string }>();
  return { userId: link.user.id, token: link.path.replace('/invite/', '') };
}

/**
 * The request of each route for a caller, with a valid body and params, so that the status
 * tells only whether the caller was let through. Destructive cells get fresh data of their own.
 */
const REQUESTS: Record<string, (caller: Caller) => Promise<Request> | Request> = {
  'GET /api/docs': () => ({ method: 'GET', url: '/api/docs' }),
  'GET /api/health': () => ({ method: 'GET', url: '/api/health' }),
  'GET /api/config': () => ({ method: 'GET', url: '/api/config' }),
  'GET /api/auth/hints': () => ({ method: 'GET', url: '/api/auth/hints' }),
  'POST /api/auth/login': () => ({
    method: 'POST',
    url: '/api/auth/login',
    ...json({ login: { email: world.loginEmail, password: DEFAULT_PASSWORD } }),
  }),
  'POST /api/auth/logout': () => ({ method: 'POST', url: '/api/auth/logout' }),
  'GET /api/auth/me': () => ({ method: 'GET', url: '/api/auth/me' }),
  'POST /api/auth/password': () => ({
    method: 'POST',
    url: '/api/auth/password',
    ...json({ password: { current: DEFAULT_PASSWORD, next: NEW_PASSWORD } }),
  }),
  'GET /api/places': () => ({ method: 'GET', url: '/api/places?query=Hamb' }),
  'GET /api/places/nearest': () => ({
    method: 'GET',
    url: '/api/places/nearest?latitude=53.55&longitude=9.99',
  }),
  'GET /api/search': () => ({ method: 'GET', url: '/api/search?q=project' }),
  'GET /api/project/all/list': () => ({ method: 'GET', url: '/api/project/all/list' }),
  'GET /api/project/locations': () => ({ method: 'GET', url: '/api/project/locations' }),
  'GET /api/project/favnfol': () => ({ method: 'GET', url: '/api/project/favnfol' }),
  'GET /api/project/user': () => ({ method: 'GET', url: '/api/project/user' }),
  'GET /api/project/bookmark': () => ({ method: 'GET', url: '/api/project/bookmark' }),
  'GET /api/project/relevant/:count': () => ({ method: 'GET', url: '/api/project/relevant/5' }),
  'GET /api/project/id/:id': () => ({ method: 'GET', url: `/api/project/id/${world.projectId}` }),
  'GET /api/project/profile/:id': () => ({
    method: 'GET',
    url: `/api/project/profile/${world.owner.id}`,
  }),
  'POST /api/project/create': () => ({
    method: 'POST',
    url: '/api/project/create',
    ...json({ project: { name: `New ${randomBytes(3).toString('hex')}`, location: 'Berlin' } }),
  }),
  'PATCH /api/project/update/:id': () => ({
    method: 'PATCH',
    url: `/api/project/update/${world.projectId}`,
    ...json({ project: { name: 'Renamed', location: 'Hamburg, Germany', description: 'x' } }),
  }),
  'GET /api/project/:id/favor': () => ({
    method: 'GET',
    url: `/api/project/${world.projectId}/favor`,
  }),
  'GET /api/project/:id/unfavor': () => ({
    method: 'GET',
    url: `/api/project/${world.projectId}/unfavor`,
  }),
  'GET /api/project/:id/follow': () => ({
    method: 'GET',
    url: `/api/project/${world.projectId}/follow`,
  }),
  'GET /api/project/:id/unfollow': () => ({
    method: 'GET',
    url: `/api/project/${world.projectId}/unfollow`,
  }),
  'GET /api/project/archived': () => ({ method: 'GET', url: '/api/project/archived' }),
  // Each cell archives or restores a project of the owner's own, so the shared project stays open.
  'POST /api/project/:id/archive': async () => {
    const project = await buildProject(ctx, { creatorId: world.owner.id });
    return { method: 'POST', url: `/api/project/${project.id}/archive` };
  },
  'POST /api/project/:id/restore': async () => {
    const project = await buildProject(ctx, { creatorId: world.owner.id });
    await archiveProject(ctx, project.id);
    return { method: 'POST', url: `/api/project/${project.id}/restore` };
  },
  'GET /api/user/all': () => ({ method: 'GET', url: '/api/user/all' }),
  'POST /api/user/create': () => ({
    method: 'POST',
    url: '/api/user/create',
    ...json({
      user: {
        email: `new-${randomBytes(4).toString('hex')}@example.com`,
        firstname: 'New',
        lastname: 'Member',
        password: NEW_PASSWORD,
      },
    }),
  }),
  // The owner of a user path is that user: deactivating oneself is still an admin call.
  'DELETE /api/user/:id': async ({ role, userId }) => {
    const target = role === 'owner' && userId !== null ? userId : (await buildUser(ctx)).id;
    return { method: 'DELETE', url: `/api/user/${target}` };
  },
  'GET /api/user/:id/activate': async ({ role, userId }) => {
    const target =
      role === 'owner' && userId !== null ? userId : (await buildUser(ctx, { isActive: false })).id;
    return { method: 'GET', url: `/api/user/${target}/activate` };
  },
  'GET /api/user/profile/:id': () => ({
    method: 'GET',
    url: `/api/user/profile/${world.owner.id}`,
  }),
  'GET /api/user/all/profile': () => ({ method: 'GET', url: '/api/user/all/profile' }),
  'POST /api/user/invite': () => ({
    method: 'POST',
    url: '/api/user/invite',
    ...json({
      user: {
        email: `invited-${randomBytes(4).toString('hex')}@example.com`,
        firstname: 'Invited',
        lastname: 'Member',
      },
    }),
  }),
  // Each cell renews the link of a member invited for it (the owner's path is their own).
  'POST /api/user/:id/invite': async ({ role, userId }) => {
    const target = role === 'owner' && userId !== null ? userId : (await invitation()).userId;
    return { method: 'POST', url: `/api/user/${target}/invite` };
  },
  'GET /api/invitation/:token': async () => ({
    method: 'GET',
    url: `/api/invitation/${(await invitation()).token}`,
  }),
  'POST /api/invitation/:token/accept': async () => ({
    method: 'POST',
    url: `/api/invitation/${(await invitation()).token}/accept`,
    ...json({ password: NEW_PASSWORD }),
  }),
  'POST /api/upload/autoupload': () => {
    const body = multipartBody([
      filePart(photo),
      dtoPart({ name: 'matrix', description: '', projectId: world.projectId }),
    ]);
    return { method: 'POST', url: '/api/upload/autoupload', ...body };
  },
  'GET /api/upload/full/:id': () => ({ method: 'GET', url: `/api/upload/full/${world.uploadId}` }),
  'GET /api/upload/latest/:count': () => ({ method: 'GET', url: '/api/upload/latest/18' }),
  'GET /api/upload/project/:id/latest': () => ({
    method: 'GET',
    url: `/api/upload/project/${world.projectId}/latest`,
  }),
  'GET /api/upload/project/:id/locations': () => ({
    method: 'GET',
    url: `/api/upload/project/${world.projectId}/locations`,
  }),
  'GET /api/upload/user/:id/latest': () => ({
    method: 'GET',
    url: `/api/upload/user/${world.owner.id}/latest`,
  }),
  'GET /api/upload/tags': () => ({
    method: 'GET',
    url: `/api/upload/tags?q=le&project=${world.projectId}`,
  }),
  'PATCH /api/upload/update/no-image/:id': () => ({
    method: 'PATCH',
    url: `/api/upload/update/no-image/${world.uploadId}`,
    ...json({ upload: { name: 'Renamed', description: 'edited' } }),
  }),
  'DELETE /api/upload/delete/:id': async () => {
    const id = await buildUpload(ctx, { projectId: world.projectId, creatorId: world.owner.id });
    return { method: 'DELETE', url: `/api/upload/delete/${id}` };
  },
  'GET /api/upload/:id/comments': () => ({
    method: 'GET',
    url: `/api/upload/${world.uploadId}/comments`,
  }),
  'POST /api/upload/:id/comments': () => ({
    method: 'POST',
    url: `/api/upload/${world.uploadId}/comments`,
    ...json({ body: 'Matrix comment' }),
  }),
  // Each cell edits or deletes a comment of the owner's own.
  'PATCH /api/comment/:id': async () => {
    const id = await buildComment(ctx, { uploadId: world.uploadId, authorId: world.owner.id });
    return { method: 'PATCH', url: `/api/comment/${id}`, ...json({ body: 'Edited' }) };
  },
  'DELETE /api/comment/:id': async () => {
    const id = await buildComment(ctx, { uploadId: world.uploadId, authorId: world.owner.id });
    return { method: 'DELETE', url: `/api/comment/${id}` };
  },
  'GET /api/user/mentionable': () => ({ method: 'GET', url: '/api/user/mentionable?q=a' }),
  'GET /api/events': () => ({ method: 'GET', url: `/api/events?project=${world.projectId}` }),
  'GET /api/notifications': () => ({ method: 'GET', url: '/api/notifications?limit=5' }),
  'GET /api/notifications/unread': () => ({ method: 'GET', url: '/api/notifications/unread' }),
  // Each cell reads a new notification of the owner's: a member's upload to the owner's project.
  'POST /api/notifications/:id/read': async () => {
    const uploadId = await buildUpload(ctx, {
      projectId: world.projectId,
      creatorId: world.member.id,
    });
    const { id } = await ctx.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', world.owner.id)
      .where('upload_id', '=', uploadId)
      .executeTakeFirstOrThrow();
    return { method: 'POST', url: `/api/notifications/${id}/read` };
  },
  'POST /api/notifications/read-all': () => ({
    method: 'POST',
    url: '/api/notifications/read-all',
  }),
  'GET /api/notifications/settings': () => ({ method: 'GET', url: '/api/notifications/settings' }),
  'PATCH /api/notifications/settings': () => ({
    method: 'PATCH',
    url: '/api/notifications/settings',
    ...json({ reports: true }),
  }),
  'GET /api/project/:id/mute': () => ({
    method: 'GET',
    url: `/api/project/${world.projectId}/mute`,
  }),
  'POST /api/project/:id/mute': async () => {
    const project = await buildProject(ctx, { creatorId: world.owner.id });
    return { method: 'POST', url: `/api/project/${project.id}/mute` };
  },
  'POST /api/project/:id/unmute': () => ({
    method: 'POST',
    url: `/api/project/${world.projectId}/unmute`,
  }),
  'GET /api/workspace': () => ({ method: 'GET', url: '/api/workspace' }),
  'PATCH /api/workspace': () => ({
    method: 'PATCH',
    url: '/api/workspace',
    ...json({ teamName: 'Matrix Construction' }),
  }),
  'POST /api/report': () => ({
    method: 'POST',
    url: '/api/report',
    ...json({
      projectId: world.projectId,
      type: 'daily',
      title: 'Matrix report',
      from: '2026-01-01',
      to: '2026-01-01',
      layout: 1,
      photos: [{ uploadId: world.uploadId }],
    }),
  }),
  'GET /api/report/latest': () => ({ method: 'GET', url: '/api/report/latest?limit=5' }),
  'GET /api/report/:id': () => ({ method: 'GET', url: `/api/report/${world.reportId}` }),
  // Each cell re-generates or deletes a report of the owner's own, made for it (one whose PDF
  // failed: a queued one would be refused while it waits).
  'POST /api/report/:id/regenerate': async () => {
    const id = await ownersReport('failed');
    return { method: 'POST', url: `/api/report/${id}/regenerate` };
  },
  'DELETE /api/report/:id': async () => ({
    method: 'DELETE',
    url: `/api/report/${await ownersReport('failed')}`,
  }),
  'GET /api/report/:id/links': () => ({
    method: 'GET',
    url: `/api/report/${world.reportId}/links`,
  }),
  'POST /api/report/:id/links': () => ({
    method: 'POST',
    url: `/api/report/${world.reportId}/links`,
    ...json({ expiresInDays: 7 }),
  }),
  // Each cell revokes a link the owner has just made.
  'DELETE /api/report/link/:id': async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: `/api/report/${world.reportId}/links`,
      token: world.owner.token,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(201);
    return { method: 'DELETE', url: `/api/report/link/${res.json<{ id: number }>().id}` };
  },
  'GET /api/report/shared/:token': () => ({
    method: 'GET',
    url: `/api/report/shared/${world.sharedToken}`,
  }),
  'GET /media/*': ({ role }) => {
    const link = world.links[role];
    return { method: 'GET', url: link };
  },
};

/** A report of the owner's, of the world's photo, left in `status` (the queue never takes it). */
async function ownersReport(status: 'failed'): Promise<number> {
  const id = await buildReport(ctx, {
    projectId: world.projectId,
    authorId: world.owner.id,
    uploadIds: [world.uploadId],
  });
  await ctx.db
    .updateTable('reports')
    .set({ status, error: 'Matrix' })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .execute();
  return id;
}

/** The owner's report with its PDF made, and a public link to it. */
async function sharedReport(
  owner: Person,
  projectId: number,
  uploadId: number,
): Promise<{ reportId: number; sharedToken: string }> {
  const created = await api(ctx, {
    method: 'POST',
    url: '/api/report',
    token: owner.token,
    payload: {
      projectId,
      type: 'safety',
      title: 'Shared report',
      from: '2026-01-01',
      to: '2026-01-01',
      layout: 2,
      photos: [{ uploadId }],
    },
  });
  expect(created.statusCode, created.body).toBe(202);
  const report = await waitForReport(ctx, owner.token, created.json<{ id: number }>().id);
  expect(report.status).toBe('ready');
  const link = await api(ctx, {
    method: 'POST',
    url: `/api/report/${report.id}/links`,
    token: owner.token,
    payload: {},
  });
  expect(link.statusCode, link.body).toBe(201);
  return {
    reportId: report.id,
    sharedToken: link.json<{ path: string }>().path.replace('/api/report/shared/', ''),
  };
}

// Calls that end or rotate the caller's own session get a new signed-in user per cell, so the
// shared sessions stay live for the other rows.
const OWN_SESSION = new Set(['POST /api/auth/logout', 'POST /api/auth/password']);

async function callerFor(route: string, role: Role): Promise<Caller> {
  switch (role) {
    case 'anonymous':
      return { role, token: undefined, userId: null };
    case 'forged':
      return { role, token: randomBytes(32).toString('base64url'), userId: null };
    case 'deactivated':
      return { role, token: world.deactivatedToken, userId: null };
    case 'expired':
      return { role, token: world.expiredToken, userId: null };
    default: {
      const who = OWN_SESSION.has(route)
        ? await person({ isAdmin: role === 'admin' })
        : world[role];
      return { role, token: who.token, userId: who.id };
    }
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  photo = await jpegWithExif();
  const [member, owner, admin, deactivated, expired, loginUser] = [
    await person(),
    await person(),
    await person({ isAdmin: true }),
    await person(),
    await person(),
    await buildUser(ctx),
  ];
  const project = await buildProject(ctx, { creatorId: owner.id });
  const uploadId = await buildUpload(ctx, { projectId: project.id, creatorId: owner.id });

  const links = {
    member: await previewLink(member.token, uploadId),
    owner: await previewLink(owner.token, uploadId),
    admin: await previewLink(admin.token, uploadId),
    deactivated: await previewLink(deactivated.token, uploadId),
    expired: await previewLink(expired.token, uploadId),
  };
  const unsigned = links.owner.split('?')[0] ?? '';
  const forged = links.owner.replace(/sig=[0-9a-f]+/, `sig=${randomBytes(32).toString('hex')}`);

  // Both old sessions end the way they do in the app: an admin deactivates the account; the
  // other session simply outlives its absolute lifetime.
  const off = await api(ctx, {
    method: 'DELETE',
    url: `/api/user/${deactivated.id}`,
    token: admin.token,
  });
  expect(off.statusCode, off.body).toBe(200);
  await ctx.db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
    .where('user_id', '=', expired.id)
    .execute();

  world = {
    member,
    owner,
    admin,
    deactivatedToken: deactivated.token,
    expiredToken: expired.token,
    projectId: project.id,
    uploadId,
    ...(await sharedReport(owner, project.id, uploadId)),
    links: { ...links, anonymous: unsigned, forged },
    loginEmail: loginUser.email,
  };
});

afterAll(async () => {
  await ctx?.close();
});

const cells = Object.keys(EXPECTED).flatMap((route) =>
  ROLES.map((role, i) => ({ route, role, status: EXPECTED[route]?.[i] ?? 0 })),
);
console.log(
  `authorization matrix: ${Object.keys(EXPECTED).length} routes × ${ROLES.length} roles = ${cells.length} cells`,
);

describe('authorization matrix', () => {
  it('has a row for every route the app registers, and no row for a route it lacks', () => {
    expect(registered.size).toBeGreaterThan(0);
    expect([...registered].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(REQUESTS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(cells)('$route as $role → $status', async ({ route, role, status }) => {
    const make = REQUESTS[route];
    if (!make) throw new Error(`no request for ${route}`);
    const caller = await callerFor(route, role);
    const req = await make(caller);
    const res = await api(ctx, { ...req, token: caller.token } as Parameters<typeof api>[1]);
    expect(res.statusCode, res.body).toBe(status);
  });

  // A signed link is a capability: it works for whoever presents it (an <img> sends no bearer
  // header), for exactly as long as the session that fetched it is live.
  it("serves the owner's link to other callers, and stops once the owner's session ends", async () => {
    const owner = await person();
    const link = await previewLink(owner.token, world.uploadId);
    for (const token of [undefined, world.member.token, randomBytes(32).toString('base64url')]) {
      const res = await api(ctx, { method: 'GET', url: link, token });
      expect(res.statusCode).toBe(200);
    }
    const out = await api(ctx, { method: 'POST', url: '/api/auth/logout', token: owner.token });
    expect(out.statusCode).toBe(200);
    const res = await api(ctx, { method: 'GET', url: link, token: world.member.token });
    expect(res.statusCode).toBe(403);
  });
});
