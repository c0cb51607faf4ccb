import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createProject, expect, signIn, test, unique } from './fixtures.js';

/**
 * The installable app and offline use (issue 12): the install criteria, asserted directly
 * (Lighthouse 13 has no PWA category any more): a manifest with name, icons, theme colour,
 * start URL and standalone display, and a service worker with a fetch handler that controls the
 * page. Then the app shell offline after one online visit, with the offline banner and states,
 * and the data once back online. At a phone's size, with touch.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const OFFLINE_BANNER = 'You are offline. What you see was loaded earlier and may be out of date.';

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');

const screenshotsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '.artifacts',
  'screenshots',
  '390',
);

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's header (the IHDR chunk, right after the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Waits until a service worker is active and controls the page (clients.claim, no reload). */
async function serviceWorkerControls(page: Page): Promise<string> {
  const scriptUrl = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? '';
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return scriptUrl;
}

/** Every URL in the page's Cache Storage, whatever the cache. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });

test.describe('installable app', () => {
  test('links a manifest with name, icons, theme colour, start URL and standalone display', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({
      id: '/',
      name: 'Sitelog',
      short_name: 'Sitelog',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
    expect(manifest.description).toEqual(expect.any(String));
    // One colour for the window's bar, from the manifest (splash) and the page (loaded app).
    const themeMeta = await page.locator('meta[name="theme-color"]').getAttribute('content');
    expect(String(manifest.theme_color).toLowerCase()).toBe(themeMeta?.toLowerCase());
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    const icons = manifest.icons;
    const find = (size: number, purpose: string) =>
      icons.find((icon) => icon.sizes === `${size}x${size}` && (icon.purpose ?? 'any') === purpose);
    for (const [size, purpose] of [
      [192, 'any'],
      [512, 'any'],
      [512, 'maskable'],
    ] as const) {
      const icon = find(size, purpose);
      expect(icon, `a ${size} px ${purpose} icon`).toBeDefined();
      expect(icon!.type).toBe('image/png');
      const image = await request.get(icon!.src);
      expect(image.status(), icon!.src).toBe(200);
      expect(image.headers()['content-type']).toBe('image/png');
      expect(pngSize(await image.body())).toEqual({ width: size, height: size });
    }
  });

  test('a service worker with a fetch handler controls the page after the first visit', async ({
    page,
    member,
  }) => {
    await signIn(page, member);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    expect(await serviceWorkerControls(page)).toMatch(/\/sw\.js$/);
    // The worker answers the page's own request: it has a fetch handler.
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();

    // It keeps the app shell, and nothing of any user's: no API answer, no photo.
    const cached = await cachedUrls(page);
    expect(cached).toContain('/index.html');
    expect(cached.some((url) => url.startsWith('/assets/') && url.endsWith('.js'))).toBe(true);
    expect(cached.filter((url) => /^\/(api|media)(\/|$)/.test(url))).toEqual([]);
  });
});

test.describe('delivery', () => {
  test("the first visit's scripts are the build's brotli files, sent as they are", async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/'))
        .filter((entry) => entry.name.endsWith('.js'))
        .map(({ name, encodedBodySize, decodedBodySize }) => ({
          file: new URL(name).pathname,
          encodedBodySize,
          decodedBodySize,
        })),
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const { file, encodedBodySize, decodedBodySize } of scripts) {
      const built = path.join(webDist, file);
      expect(decodedBodySize, file).toBe(statSync(built).size);
      // Under 1 KB a file is sent plain (the build makes no .br of it).
      if (!existsSync(`${built}.br`)) {
        expect(decodedBodySize, file).toBeLessThan(1024);
        continue;
      }
      // The bytes that came are the build's brotli file: compressed once, at its best quality.
      expect(encodedBodySize, file).toBe(statSync(`${built}.br`).size);
    }
  });
});

test.describe('offline', () => {
  test('after one online visit the app opens offline, says so, and loads its data once back online', async ({
    page,
    context,
    member,
    request,
  }) => {
    const project = await createProject(request, member, unique('Offline project'));
    await signIn(page, member);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    await serviceWorkerControls(page);

    await context.setOffline(true);
    const shell = page.getByRole('banner');
    const main = page.getByRole('main');
    // A placeholder's offline state (the banner is a status too, with other words).
    const offlineState = main
      .getByRole('status')
      .filter({ hasText: 'This will load when the connection returns.' });

    await page.reload();
    await expect(shell.getByText('Sitelog', { exact: true })).toBeVisible();
    await expect(main.getByText(OFFLINE_BANNER)).toBeVisible();
    await expect(offlineState.first()).toBeVisible();
    await expect(main.getByRole('status', { name: /^Loading/ })).toHaveCount(0);

    // Another screen, opened afresh: its page comes from the worker too.
    await page.goto('/projects');
    await expect(page.getByRole('heading', { name: 'My projects', level: 1 })).toBeVisible();
    await expect(main.getByText(OFFLINE_BANNER)).toBeVisible();
    await expect(offlineState).toHaveCount(1);
    await expect(main.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
    mkdirSync(screenshotsDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotsDir, 'offline-my-projects.png') });

    await context.setOffline(false);
    const list = main.getByRole('list', { name: 'My projects' });
    await expect(list.getByRole('link', { name: project.name })).toBeVisible();
    await expect(main.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expect(offlineState).toHaveCount(0);

    // Nothing the pages loaded was kept by the worker.
    const cached = await cachedUrls(page);
    expect(cached.filter((url) => /^\/(api|media)(\/|$)/.test(url))).toEqual([]);
  });

  test('a screen already open keeps its data when the connection drops, marked as possibly out of date', async ({
    page,
    context,
    member,
    request,
  }) => {
    const project = await createProject(request, member, unique('Offline kept'));
    await signIn(page, member);
    await page.goto('/projects');
    const main = page.getByRole('main');
    const link = main.getByRole('list', { name: 'My projects' }).getByRole('link', {
      name: project.name,
    });
    await expect(link).toBeVisible();

    await context.setOffline(true);
    await expect(main.getByText(OFFLINE_BANNER)).toBeVisible();
    await expect(link).toBeVisible();
    mkdirSync(screenshotsDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotsDir, 'offline-banner-with-data.png') });

    await context.setOffline(false);
    await expect(main.getByText(OFFLINE_BANNER)).toHaveCount(0);
    await expect(link).toBeVisible();
  });
});
