// Field capture (issue 12) in Chromium on a phone: many photos per visit, an offline queue that
// survives a reload and a closed app, a server that goes away mid-batch, refusals, logout, and
// the tap count from Home to the first photo sent.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  request as playwrightRequest,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import type { Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { seriousViolations } from './axe.js';
import { chromiumFlags, chromiumPath } from './chromium.js';
import {
  apiLogin,
  bearer,
  createProject,
  expect,
  samplePassword,
  SAMPLE_ADMIN,
  signIn,
  test,
  unique,
  type Account,
} from './fixtures.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function jpeg(seed: number, width = 320, height = 240): Promise<Buffer> {
  const pixels = randomBytes(width * height * 3);
  pixels[0] = seed;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function photos(count: number, prefix: string, size?: [number, number]) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `${prefix}-${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await jpeg(i, ...(size ?? [320, 240])),
    })),
  );
}

/** The project's uploads as the API has them (newest first). */
async function projectUploads(
  request: APIRequestContext,
  account: Account,
  projectId: number,
): Promise<Upload[]> {
  const res = await request.get(`/api/upload/project/${projectId}/latest`, {
    headers: bearer(account),
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload[];
}

const visitTiles = (page: Page) =>
  page.getByRole('list', { name: 'Photos of this visit' }).getByRole('listitem');

/** How many records each store of the upload queue's IndexedDB holds, read in `page`. */
function queueStoreCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('sitelog-upload-queue');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const db = open.result;
          const names = Array.from(db.objectStoreNames);
          const tx = db.transaction(names);
          const counts: Record<string, number> = {};
          for (const name of names) {
            const count = tx.objectStore(name).count();
            count.onsuccess = () => (counts[name] = count.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts);
          };
        };
      }),
  );
}

/** A phone (390 px, touch) signed in as `account`, on the uploader of `projectId`. */
async function phoneUploader(
  browser: Browser,
  account: Account,
  projectId: number,
  baseURL = test.info().project.use.baseURL,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...phone, baseURL });
  const page = await context.newPage();
  await signIn(page, account);
  await page.goto(`/uploader/${projectId}/create`);
  await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
  return { context, page };
}

/** Waits until a service worker controls the page (installed on the first online visit). */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
  });
}

test.describe('field capture', () => {
  test('offline: 5 photos survive a reload and a closed app, then arrive exactly once with their text', async ({
    admin,
    request,
  }) => {
    const baseURL = test.info().project.use.baseURL!;
    const projectId = (await createProject(request, admin, unique('Basement'))).id;
    const userDataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-e2e-profile-'));
    const launch = ({ offline = false } = {}) =>
      chromium.launchPersistentContext(userDataDir, {
        executablePath: chromiumPath,
        args: chromiumFlags,
        baseURL,
        offline,
        ...phone,
      });
    let context: BrowserContext | null = await launch();
    try {
      let page = context.pages()[0] ?? (await context.newPage());
      await signIn(page, admin);
      // One online visit installs the app shell.
      await page.goto(`/uploader/${projectId}/create`);
      await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await page.getByLabel('Description').fill('Taken without signal');
      await page.getByLabel('Choose photos').setInputFiles(await photos(5, 'cellar'));
      await expect(visitTiles(page)).toHaveCount(5);
      await expect(page.getByText('Waiting for signal')).toHaveCount(5);
      await expect(page.getByTestId('queue-count')).toContainText('5');

      // A reload without signal: the shell comes from the service worker, the queue from the device.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
      await expect(visitTiles(page)).toHaveCount(5);
      await expect(page.getByText('Waiting for signal')).toHaveCount(5);

      // The app is closed and opened again, still offline.
      await context.close();
      // Opened again without signal from its first moment (it would send at once otherwise).
      context = await launch({ offline: true });
      page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/uploads/queue');
      await expect(page.getByRole('heading', { name: 'Upload queue' })).toBeVisible();
      await expect(page.getByText(/5 photos on this device/)).toBeVisible();
      expect(await projectUploads(request, admin, projectId)).toHaveLength(0);

      // Signal again: everything arrives once, and the queue is empty.
      await context.setOffline(false);
      await expect(page.getByText('Nothing waiting')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('queue-count')).toHaveCount(0);
      const uploads = await projectUploads(request, admin, projectId);
      expect(uploads).toHaveLength(5);
      for (const upload of uploads) {
        expect(upload.description).toBe('Taken without signal');
        // Unnamed photos are named after the project, never after the camera's file.
        expect(upload.name).not.toMatch(/cellar/);
      }
    } finally {
      await context?.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    }
  });

  test('with the app closed, the service worker sends the queue (Background Sync)', async ({
    browser,
    admin,
    request,
  }) => {
    const baseURL = test.info().project.use.baseURL!;
    const projectId = (await createProject(request, admin, unique('Tunnel'))).id;
    const { context, page } = await phoneUploader(browser, admin, projectId, baseURL);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.getByLabel('Choose photos').setInputFiles(await photos(2, 'tunnel'));
    await expect(page.getByText('Waiting for signal')).toHaveCount(2);

    // The app is closed: no page of the site is open when the signal returns.
    const blank = await context.newPage();
    await page.close();
    await context.setOffline(false);
    // The browser fires the queue's sync when it sees the connection back; fire it here as the
    // browser does (DevTools protocol), so the test does not depend on the emulated network.
    const cdp = await context.newCDPSession(blank);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(baseURL) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    const sync = () =>
      cdp.send('ServiceWorker.dispatchSyncEvent', {
        origin: new URL(baseURL).origin,
        registrationId,
        tag: 'sitelog-upload-queue',
        lastChance: false,
      });
    // A sync the worker could not finish is fired again by the browser (with a back-off); on a
    // loaded machine the first one can find the worker still starting, so fire it up to three
    // times as the browser would. Exactly two uploads must arrive whatever the number of syncs.
    for (let attempt = 1; ; attempt++) {
      await sync();
      const sent = await expect
        .poll(async () => (await projectUploads(request, admin, projectId)).length, {
          timeout: 15_000,
        })
        .toBe(2)
        .then(() => true)
        .catch((err: unknown) => {
          if (attempt === 3) throw err;
          return false;
        });
      if (sent) break;
    }
    // The worker has recorded them as sent, files gone: read from a page of the site that is
    // not the app (the app would send leftovers itself).
    const probe = await context.newPage();
    await probe.goto('/icon-192.png');
    await expect.poll(async () => (await queueStoreCounts(probe)).files).toBe(0);
    expect(await projectUploads(request, admin, projectId)).toHaveLength(2);
    await context.close();
  });

  test('a refused photo shows why and stays queued, across a reload, until discarded', async ({
    browser,
    admin,
    request,
  }) => {
    const projectId = (await createProject(request, admin, unique('Refusals'))).id;
    const { context, page } = await phoneUploader(browser, admin, projectId);
    // A JPEG name and type on bytes that are not an image: the server decides from the bytes.
    await page.getByLabel('Choose photos').setInputFiles({
      name: 'not-a-photo.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('<?php echo "hi"; ?>'),
    });
    const tile = visitTiles(page).filter({ hasText: 'Not accepted' });
    await expect(tile).toBeVisible({ timeout: 20_000 });
    await expect(tile).toContainText(/image/i);

    await page.goto('/uploads/queue');
    const queued = page.getByRole('list', { name: 'Photos on this device' }).getByRole('listitem');
    await expect(queued).toHaveCount(1);
    await expect(queued).toContainText('Not accepted');
    await page.reload();
    await expect(queued).toHaveCount(1);
    await queued.getByRole('button', { name: 'Discard not-a-photo.jpg' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByText('Nothing waiting')).toBeVisible();
    expect(await projectUploads(request, admin, projectId)).toHaveLength(0);
    await context.close();
  });

  test('the uploader with its tiles, the queue and the batch editor pass axe', async ({
    browser,
    admin,
    request,
  }) => {
    const projectId = (await createProject(request, admin, unique('Axe'))).id;
    const { context, page } = await phoneUploader(browser, admin, projectId);
    await page
      .getByLabel('Choose photos')
      .setInputFiles([
        ...(await photos(1, 'axe')),
        { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not a photo') },
      ]);
    await expect(visitTiles(page).getByText('Sent', { exact: true })).toHaveCount(1, {
      timeout: 20_000,
    });
    await expect(visitTiles(page).getByText('Not accepted')).toBeVisible({ timeout: 20_000 });
    expect(await seriousViolations(page), 'uploader').toEqual([]);
    await page.goto('/uploads/queue');
    await expect(page.getByText(/1 photo on this device/)).toBeVisible();
    expect(await seriousViolations(page), 'queue').toEqual([]);
    await page.goto(`/uploader/${projectId}/batch`);
    await expect(page.getByLabel('Name of photo 2')).toBeVisible();
    expect(await seriousViolations(page), 'batch editor').toEqual([]);
    await context.close();
  });

  test('logout asks before deleting photos that still wait', async ({
    browser,
    admin,
    request,
  }) => {
    const projectId = (await createProject(request, admin, unique('Logout'))).id;
    const context = await browser.newContext({
      ...phone,
      baseURL: test.info().project.use.baseURL,
    });
    const page = await context.newPage();
    // A session of the page's own (logged in from a separate API context): its logout ends it,
    // not the one the checks below use.
    const login = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
    await signIn(page, await apiLogin(login, SAMPLE_ADMIN, admin.password));
    await login.dispose();
    await page.goto(`/uploader/${projectId}/create`);
    await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
    await context.setOffline(true);
    await page.getByLabel('Choose photos').setInputFiles(await photos(1, 'late'));
    await expect(page.getByText('Waiting for signal')).toBeVisible();
    // Signal again for the profile page, but every send fails: the photo still waits. The sends
    // fail before the signal comes back, or the queue may send the photo in between.
    await context.route('**/api/upload/autoupload', (route) => route.abort());
    await context.setOffline(false);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Photos are still waiting to be sent' });
    await expect(dialog).toContainText('1 photo is still on this device');
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Log out and discard' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The photo, its file, the projects remembered and the stored session are gone.
    expect(await queueStoreCounts(page)).toEqual({
      photos: 0,
      files: 0,
      recentProjects: 0,
      session: 0,
    });
    expect(await projectUploads(request, admin, projectId)).toHaveLength(0);
    await context.close();
  });

  test('a first visit that loses signal before the queue count’s code came keeps the uploader', async ({
    browser,
    admin,
    request,
  }) => {
    const projectId = (await createProject(request, admin, unique('First visit'))).id;
    // No service worker yet (a first visit) and no network for the count's code: it is fetched
    // once the browser is idle after the first render, which may be after the signal is gone.
    const context = await browser.newContext({
      ...phone,
      baseURL: test.info().project.use.baseURL,
      serviceWorkers: 'block',
    });
    let refused = 0;
    await context.route('**/assets/queue-indicator-*.js', async (route) => {
      refused += 1;
      await route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    await signIn(page, admin);
    await page.goto(`/uploader/${projectId}/create`);
    await expect.poll(() => refused).toBeGreaterThan(0);
    await context.setOffline(true);
    await page.getByLabel('Choose photos').setInputFiles(await photos(1, 'first'));
    await expect(page.getByText('Waiting for signal')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    // Back online, the photo is sent from this page.
    await context.setOffline(false);
    await expect
      .poll(async () => (await projectUploads(request, admin, projectId)).length, {
        timeout: 20_000,
      })
      .toBe(1);
    await context.close();
  });

  test('from Home to the first photo sent takes 3 taps, and each further photo 1', async ({
    browser,
    admin,
    request,
  }) => {
    const project = await createProject(request, admin, unique('Tap count'));
    // Bookmarked, so the chooser lists it first (as a crew's current site is).
    const mark = await request.get(`/api/project/${project.id}/favor/`, {
      headers: bearer(admin),
    });
    expect(mark.ok(), await mark.text()).toBe(true);
    const context = await browser.newContext({
      ...phone,
      baseURL: test.info().project.use.baseURL,
    });
    const page = await context.newPage();
    await signIn(page, admin);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Latest uploads' })).toBeVisible();
    const shots = await photos(3, 'tap');
    let taps = 0;
    const tap = async (locator: ReturnType<Page['getByRole']>) => {
      await locator.tap();
      taps += 1;
    };
    const shoot = async (index: number) => {
      const chooser = page.waitForEvent('filechooser');
      await tap(page.getByText('Take photo', { exact: true }));
      await (await chooser).setFiles(shots[index]!);
    };

    await tap(page.getByRole('banner').getByRole('link', { name: 'Upload', exact: true }));
    await tap(
      page
        .getByRole('list', { name: 'Bookmarked and followed projects' })
        .getByRole('link', { name: new RegExp(project.name) }),
    );
    await shoot(0);
    await expect(visitTiles(page).getByText('Sent', { exact: true })).toHaveCount(1, {
      timeout: 30_000,
    });
    expect(taps).toBe(3);

    for (const index of [1, 2]) {
      const before = taps;
      await shoot(index);
      await expect(visitTiles(page).getByText('Sent', { exact: true })).toHaveCount(index + 1, {
        timeout: 30_000,
      });
      expect(taps - before).toBe(1);
    }
    expect(await projectUploads(request, admin, project.id)).toHaveLength(3);
    await context.close();
  });
});

/** A port no other process holds right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A second Sitelog of the test's own (the suite's server must not be stopped). */
async function startApp(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SAMPLE_DATA: 'on',
      LOG_LEVEL: 'warn',
    },
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('the app did not start within 60 s');
}

test('the server stops mid-batch and comes back: every photo arrives exactly once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-e2e-restart-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let app = await startApp(dataDir, port);
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const admin = await apiLogin(api, SAMPLE_ADMIN, await samplePassword(api));
    const projectId = (await createProject(api, admin, unique('Restart'))).id;
    const { context, page } = await phoneUploader(browser, admin, projectId, baseURL);

    // The first two photos go through; the rest are held until the server has been killed.
    let sent = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/api/upload/autoupload', async (route) => {
      sent += 1;
      if (sent > 2) await held;
      await route.continue().catch(() => undefined);
    });
    await page.getByLabel('Choose photos').setInputFiles(await photos(8, 'site'));
    await expect(visitTiles(page)).toHaveCount(8);
    await expect(visitTiles(page).getByText('Sent', { exact: true })).toHaveCount(2, {
      timeout: 30_000,
    });

    app.kill('SIGKILL');
    await new Promise((resolve) => app.once('exit', resolve));
    release();
    await expect(page.getByText(/Failed, will retry/).first()).toBeVisible({ timeout: 30_000 });

    app = await startApp(dataDir, port);
    await expect(visitTiles(page).getByText('Sent', { exact: true })).toHaveCount(8, {
      timeout: 90_000,
    });
    const uploads = await projectUploads(api, admin, projectId);
    expect(uploads).toHaveLength(8);
    expect(new Set(uploads.map((u) => u.id)).size).toBe(8);
    await context.close();
  } finally {
    await api.dispose();
    app.kill('SIGTERM');
    await new Promise((resolve) =>
      app.exitCode === null ? app.once('exit', resolve) : resolve(null),
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
});
