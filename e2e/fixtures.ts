import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import type { LoginHints, LoginResponse, Project, Upload } from '@sitelog/shared';
import sharp from 'sharp';

/** A signed-in account: the login answer, plus the password it was signed in with. */
export type Account = LoginResponse & { password: string };

/**
 * Set by the cluster config (e2e/playwright.cluster.config.ts): an instance's own
 * /api/auth/hints, bypassing nginx. The app is then behind a proxy, whose X-Forwarded-For keeps
 * the sample password off the login page (by design), so tests type it instead.
 */
const directHintsUrl = process.env.E2E_HINTS_URL;
/** True when the app under test is behind nginx: the login page is not prefilled. */
export const behindProxy = !!directHintsUrl;

/** This suite's artifacts folder (screenshots go under it), as its Playwright config chose. */
export const artifactsDir =
  process.env.E2E_ARTIFACTS_DIR ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), '.artifacts');

/**
 * The sample workspace's shared password, as the login page gets it (behind nginx: from an
 * instance directly, the only place that tells it).
 */
export async function samplePassword(request: APIRequestContext): Promise<string> {
  const hints = await request.get(directHintsUrl ?? '/api/auth/hints');
  const body = (await hints.json()) as LoginHints;
  if (!body.sample) throw new Error('the e2e server has no sample account');
  return body.sample.password;
}

export const SAMPLE_ADMIN = 'dana.whitfield@example.com';
export const SAMPLE_MEMBER = 'marco.rossi@example.com';

/**
 * Waits for the login form to hold the sample admin, as a visitor on this machine finds it
 * (prefilled by the server); behind nginx, which never offers the sample account, types it.
 */
export async function sampleAdminOnLoginForm(page: Page, request: APIRequestContext) {
  const email = page.getByLabel('Email');
  const password = page.getByLabel('Password', { exact: true });
  if (behindProxy) {
    await email.fill(SAMPLE_ADMIN);
    await password.fill(await samplePassword(request));
  }
  await expect(email).toHaveValue(SAMPLE_ADMIN);
  await expect(password).not.toHaveValue('');
}

export async function apiLogin(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<Account> {
  const res = await request.post('/api/auth/login', { data: { login: { email, password } } });
  expect(res.status(), await res.text()).toBe(200);
  return { ...((await res.json()) as LoginResponse), password };
}

/** Opens a page already signed in, by writing the session the web app keeps in localStorage. */
export async function signIn(page: Page, account: Account): Promise<void> {
  const user = {
    id: account.id,
    firstname: account.firstname,
    lastname: account.lastname,
    email: account.email,
    isAdmin: account.isAdmin,
  };
  await page.addInitScript(
    ([token, userJson]) => {
      if (!window.localStorage.getItem('sitelog.token')) {
        window.localStorage.setItem('sitelog.token', token);
        window.localStorage.setItem('sitelog.user', userJson);
      }
    },
    [account.token, JSON.stringify(user)] as const,
  );
}

/** Fails the test on any uncaught page error. */
export const test = base.extend<{ admin: Account; member: Account; pageErrors: Error[] }>({
  admin: async ({ request }, use) => {
    await use(await apiLogin(request, SAMPLE_ADMIN, await samplePassword(request)));
  },
  member: async ({ request }, use) => {
    await use(await apiLogin(request, SAMPLE_MEMBER, await samplePassword(request)));
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = [];
      page.on('pageerror', (err) => errors.push(err));
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Unique text for names, so tests never depend on each other's data. */
export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

export const bearer = (account: Account) => ({ authorization: `Bearer ${account.token}` });

/** A project of the calling spec's own, so no spec depends on another's data or the sample's. */
export async function createProject(
  request: APIRequestContext,
  account: Account,
  name: string,
  location = 'Vienna, Austria',
): Promise<Project> {
  const res = await request.post('/api/project/create', {
    headers: bearer(account),
    data: { project: { name, location, description: 'Made by the e2e suite.' } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Project;
}

/** A small real JPEG of one colour. */
export function makeJpeg(width = 640, height = 480): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Uploads a photo to `projectId` through the API, as the uploader does. */
export async function createUpload(
  request: APIRequestContext,
  account: Account,
  projectId: number,
  name: string,
): Promise<Upload> {
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(account),
    multipart: {
      file: { name: 'e2e.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg() },
      createUploadDto: JSON.stringify({
        name,
        description: 'Uploaded by the e2e suite.',
        projectId,
      }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload;
}
