import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import type { Project, Upload } from '@sitelog/shared';
import { axeBuilder, settleAnimations } from './axe.js';
import { bearer, expect, signIn, test, unique, type Account } from './fixtures.js';
import { expectNoNetwork, stubTiles } from './map-tiles.js';
import { gpsJpeg } from './photos.js';

/**
 * The maps (issue 13 §3) at 1280 px and, through the @phone tag, 390 px: the project page's map
 * with its site and three geotagged photos (clustered when zoomed out, a pin opening the photo)
 * and the All projects map. Tiles never come from the network: every tile request is answered
 * by a stub, and the test fails if one went unanswered or anything left for another host.
 */

test.use({
  // Requests a service worker handles are not seen by page.route: keep every tile routable.
  serviceWorkers: 'block',
});

const screenshotsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '.artifacts',
  'screenshots',
);

async function createSiteProject(
  request: APIRequestContext,
  account: Account,
  site: { name: string; location: string; latitude: number; longitude: number },
): Promise<Project> {
  const res = await request.post('/api/project/create', {
    headers: bearer(account),
    data: { project: { ...site, description: 'Made by the maps spec.' } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Project;
}

async function uploadAt(
  request: APIRequestContext,
  account: Account,
  projectId: number,
  name: string,
  latitude: number,
  longitude: number,
): Promise<Upload> {
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(account),
    multipart: {
      file: { name: 'gps.jpg', mimeType: 'image/jpeg', buffer: await gpsJpeg(latitude, longitude) },
      createUploadDto: JSON.stringify({ name, description: '', projectId }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const upload = (await res.json()) as Upload;
  expect(upload.latitude).toBeCloseTo(latitude, 4);
  return upload;
}

/** The phone pass runs at 390 px (the phone), the desktop pass at 1280. */
async function sizeFor(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === 'phone') await page.setViewportSize({ width: 390, height: 844 });
}

async function screenshot(page: Page, name: string) {
  // From the top, so the sticky top bar is drawn where it belongs in the full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  const width = page.viewportSize()?.width ?? 0;
  const dir = path.join(screenshotsDir, String(width));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** No serious or critical axe violation inside the map and its credit. */
async function expectAccessibleMap(page: Page) {
  await settleAnimations(page);
  const results = await axeBuilder(page)
    .include('[data-map-kind]')
    .include('[data-map-attribution]')
    .analyze();
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

// Vienna: the site, and three photos 1.5–2 km from it and from each other.
const SITE = { location: 'Vienna, Austria', latitude: 48.2082, longitude: 16.3738 };
const PHOTOS = [
  { name: 'North yard', latitude: 48.222, longitude: 16.36 },
  { name: 'South gate', latitude: 48.195, longitude: 16.365 },
  { name: 'East crane', latitude: 48.21, longitude: 16.395 },
];

test('the project map shows the site and its photos, clusters them zoomed out, and a pin opens its photo @phone', async ({
  page,
  request,
  member,
  baseURL,
}, testInfo) => {
  await sizeFor(page, testInfo);
  const project = await createSiteProject(request, member, { name: unique('Maps site'), ...SITE });
  const uploads: Upload[] = [];
  for (const photo of PHOTOS)
    uploads.push(
      await uploadAt(request, member, project.id, photo.name, photo.latitude, photo.longitude),
    );
  const tiles = await stubTiles(page, request, baseURL ?? '');
  await signIn(page, member);

  await page.goto(`/project/${project.id}?from=maps-spec`);
  const section = page.getByRole('region', { name: 'Map', exact: true });
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByText('3 photos with a location')).toBeVisible();
  const map = section.getByRole('region', { name: "Map of the project's site and photos" });
  await expect(map).toBeVisible();
  await expect(map.getByRole('button', { name: `Project site: ${SITE.location}` })).toBeVisible();
  for (const photo of PHOTOS)
    await expect(map.getByRole('button', { name: `Photo: ${photo.name}` })).toBeVisible();
  await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  const credit = section.getByRole('link', { name: tiles.config.mapAttribution });
  await expect(credit).toBeVisible();
  expect(await credit.getAttribute('href')).toBe(tiles.config.mapAttributionUrl);
  await expectAccessibleMap(page);
  await screenshot(page, 'map-project');

  // Zoomed out, the three photos are one cluster that says how many it holds.
  const cluster = map.getByRole('button', { name: '3 photos here. Zoom in' });
  for (let i = 0; i < 6 && !(await cluster.isVisible()); i++) {
    await map.getByRole('button', { name: 'Zoom out' }).click();
    await page.waitForTimeout(400);
  }
  await expect(cluster).toBeVisible();
  await expect(cluster).toHaveText('3');
  await expect(map.getByRole('button', { name: /^Photo: / })).toHaveCount(0);
  await screenshot(page, 'map-project-clustered');

  // Pressing the cluster zooms in until the photos part again.
  await cluster.click();
  await expect(map.getByRole('button', { name: 'Photo: South gate' })).toBeVisible();
  await expect(cluster).toBeHidden();

  // A pin opens its photo: photo=<id> joins the page's URL, the other parameters stay.
  const south = uploads[1] as Upload;
  await map.getByRole('button', { name: 'Photo: South gate' }).click();
  await expect(page).toHaveURL(
    new RegExp(`/project/${project.id}\\?from=maps-spec&photo=${south.id}$`),
  );
  // …in the full-screen viewer.
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await expect(viewer.locator(`img[alt="${south.name}"]`).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/project/${project.id}\\?from=maps-spec$`));
  expectNoNetwork(tiles.seen);
});

test('a photo pin opens from the keyboard', async ({ page, request, member, baseURL }) => {
  const project = await createSiteProject(request, member, { name: unique('Maps keys'), ...SITE });
  const [first] = PHOTOS;
  const upload = await uploadAt(
    request,
    member,
    project.id,
    'Keyboard pin',
    first!.latitude,
    first!.longitude,
  );
  const tiles = await stubTiles(page, request, baseURL ?? '');
  await signIn(page, member);
  await page.goto(`/project/${project.id}`);
  const pin = page.getByRole('button', { name: 'Photo: Keyboard pin' });
  await pin.focus();
  // The pin's name shows in a tooltip on focus, as on hover.
  await expect(page.locator('.leaflet-tooltip', { hasText: 'Keyboard pin' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]photo=${upload.id}$`));
  await expect(
    page.getByRole('dialog', { name: 'Photo viewer' }).locator('img[alt="Keyboard pin"]').first(),
  ).toBeVisible();
  expectNoNetwork(tiles.seen);
});

test('All projects shows projects with coordinates on a map, and a pin opens its project @phone', async ({
  page,
  request,
  member,
  baseURL,
}, testInfo) => {
  await sizeFor(page, testInfo);
  // Far from the sample's and other specs' projects (all in Europe) and from the other pass's,
  // so its pin stands alone even when the world is zoomed out to fit.
  const place =
    testInfo.project.name === 'phone'
      ? { location: 'Auckland, New Zealand', latitude: -36.8485, longitude: 174.7633 }
      : { location: 'Quito, Ecuador', latitude: -0.1807, longitude: -78.4678 };
  const far = await createSiteProject(request, member, { name: unique('Maps far'), ...place });
  const tiles = await stubTiles(page, request, baseURL ?? '');
  await signIn(page, member);

  await page.goto('/projects/all');
  await page.getByRole('button', { name: 'Map', exact: true }).click();
  await expect(page).toHaveURL(/\/projects\/all\?view=map$/);
  const map = page.getByRole('region', { name: 'Map of projects' });
  await expect(map).toBeVisible();
  const pin = map.getByRole('button', { name: `Project: ${far.name}, ${place.location}` });
  await expect(pin).toBeVisible();
  await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
  await expect(page.getByRole('link', { name: tiles.config.mapAttribution })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expectAccessibleMap(page);
  await screenshot(page, 'map-all-projects');

  await pin.click();
  await expect(page).toHaveURL(new RegExp(`/project/${far.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: far.name })).toBeVisible();
  // The project has a site and no photos: the map shows the site and says so.
  await expect(page.getByText('None of this project’s photos has a location yet.')).toBeVisible();

  // Back returns to the map view.
  await page.goBack();
  await expect(page).toHaveURL(/\?view=map$/);
  await expect(page.getByRole('region', { name: 'Map of projects' })).toBeVisible();
  expectNoNetwork(tiles.seen);
});
