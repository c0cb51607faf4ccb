// Single-line fields (names, location, email) are shown in lists and titles: a bidi override
// (U+202A–U+202E, U+2066–U+2069) there reorders what follows it on screen ("evil‮gpj.exe"), and a
// line break breaks the layout. They are stripped before the length check, so the stored text
// never holds them; multi-line descriptions keep their line breaks.
import type { Project, Upload, User } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUpload } from '../../test/factories.js';
import { api, createTestContext, signedInUser, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signedInUser>>;

const BIDI = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signedInUser(ctx, { isAdmin: true });
});
afterAll(() => ctx.close());

describe('single-line text fields', () => {
  it('store a project name and location without bidi overrides and line breaks', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: admin.token,
      payload: {
        project: {
          name: 'North\u202E wing\r\nphase 2',
          location: `\u2066Hamburg${BIDI}\n, Germany`,
          description: 'line one\r\nline two\nline three',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<Project>();
    const read = await api(ctx, {
      method: 'GET',
      url: `/api/project/id/${created.id}`,
      token: admin.token,
    });
    const stored = read.json<Project>();
    expect(stored.name).toBe('North wing phase 2');
    expect(stored.location).toBe('Hamburg , Germany');
    expect(stored.description).toBe('line one\r\nline two\nline three');
  });

  it('count the length after stripping', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: admin.token,
      payload: { project: { name: `${'\u202E'.repeat(150)}Short`, location: 'Kiel' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Project>().name).toBe('Short');
  });

  it('refuse a name that is nothing but overrides and line breaks', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: admin.token,
      payload: { project: { name: `${BIDI}\r\n`, location: 'Kiel' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Name is required/);
  });

  it('store an upload name without them, keeping the description', async () => {
    const id = await buildUpload(ctx, { creatorId: admin.id });
    const res = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${id}`,
      token: admin.token,
      payload: { upload: { name: 'evil\u202Egpj.exe\nmore', description: 'a\nb' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = res.json<Upload>();
    expect(stored.name).toBe('evilgpj.exe more');
    expect(stored.description).toBe('a\nb');
  });

  it('store a user name and email without them', async () => {
    const res = await api(ctx, {
      method: 'POST',
      url: '/api/user/create',
      token: admin.token,
      payload: {
        user: {
          email: '\u202Dbidi.user@example.com\u202C',
          firstname: 'Ann\u202E\r\n',
          lastname: '\u2067Lee\u2069',
          password: 'a long and unusual passphrase 9431',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json<User>();
    expect([user.email, user.firstname, user.lastname]).toEqual([
      'bidi.user@example.com',
      'Ann',
      'Lee',
    ]);
  });
});

describe('text that is not valid text', () => {
  it('refuses a lone surrogate (a JSON \\ud800 escape) in names, locations and descriptions with 400', async () => {
    const project = (fields: Record<string, string>) =>
      api(ctx, {
        method: 'POST',
        url: '/api/project/create',
        token: admin.token,
        payload: { project: { name: 'Fine', location: 'Kiel', ...fields } },
      });
    for (const [fields, message] of [
      [{ name: 'North \ud800wing' }, 'Name must be valid text.'],
      [{ location: 'Kiel\udc00' }, 'Location must be valid text.'],
      [{ description: 'line\n\udbff' }, 'Description must be valid text.'],
    ] as const) {
      const res = await project(fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(message);
    }
    // A pair is one character: accepted.
    const emoji = await project({ name: 'North \ud83d\ude00 wing' });
    expect(emoji.statusCode, emoji.body).toBe(200);
    expect(emoji.json<Project>().name).toBe('North 😀 wing');

    const id = await buildUpload(ctx, { creatorId: admin.id });
    const upload = await api(ctx, {
      method: 'PATCH',
      url: `/api/upload/update/no-image/${id}`,
      token: admin.token,
      payload: { upload: { name: 'photo\ud800' } },
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json<{ message: string }>().message).toBe('Name must be valid text.');
  });
});
