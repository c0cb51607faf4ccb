import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Upload } from '@sitelog/shared';
import { bearer, createProject, expect, signIn, test, unique } from './fixtures';
import { expectNoNetwork, stubTiles } from './map-tiles';
import { gpsJpeg, makePhoto, uploadPhoto } from './photos';

const screenshotsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '.artifacts',
  'screenshots',
);

async function screenshot(page: Page, name: string) {
  const dir = path.join(screenshotsDir, String(page.viewportSize()?.width ?? 0));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

const DAY = 86_400_000;
/** The heading the web app gives a day three days back ("Mon 23 Nov"). */
const dayHeading = (d: Date) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })
    .format(d)
    .replace(',', '');

interface Visit {
  projectId: number;
  projectName: string;
  /** Newest upload first, as the feeds show them. */
  uploads: Upload[];
  olderDay: Date;
}

/**
 * A project of its own with three photos by the member: one taken three days ago (uploaded
 * first), one without EXIF, one taken a minute ago with its camera (uploaded last).
 */
async function makeVisit(
  request: Parameters<typeof uploadPhoto>[0],
  member: Parameters<typeof uploadPhoto>[1],
): Promise<Visit> {
  const projectName = unique('Viewer block');
  const project = await createProject(request, member, projectName);
  const olderDay = new Date(Date.now() - 3 * DAY);
  const older = await uploadPhoto(
    request,
    member,
    project.id,
    unique('Footing pour'),
    await makePhoto({ takenAt: olderDay, rgb: [40, 90, 200] }),
  );
  const plain = await uploadPhoto(
    request,
    member,
    project.id,
    unique('Scaffold tag'),
    await makePhoto({ rgb: [30, 160, 60] }),
  );
  const recent = await uploadPhoto(
    request,
    member,
    project.id,
    unique('Rebar cage'),
    await makePhoto({
      takenAt: new Date(Date.now() - 60_000),
      camera: { make: 'Apple', model: 'iPhone 15 Pro' },
      rgb: [200, 60, 40],
    }),
    'North wall, level 2',
  );
  return { projectId: project.id, projectName, uploads: [recent, plain, older], olderDay };
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });
const photoParam = (page: Page) => new URL(page.url()).searchParams.get('photo');

/** The image element the viewer shows for an upload (the display image, not the preview). */
const viewerImage = (page: Page, upload: Upload) =>
  viewer(page).locator(`img[src="${upload.formatedLink}"]`);

test.describe('browsing photos', () => {
  test('tiles say who and when, feeds across projects name the project, days have headings @phone', async ({
    page,
    request,
    member,
  }) => {
    const visit = await makeVisit(request, member);
    const [recent, plain, older] = visit.uploads as [Upload, Upload, Upload];
    await signIn(page, member);

    // Home spans projects: author, time of day and the project on the tile.
    await page.goto('/');
    const homeTile = page.locator(`[data-upload-tile="${recent.id}"]`).first();
    await expect(homeTile).toContainText(`${member.firstname} ${member.lastname}`);
    await expect(homeTile).toContainText(/today, \d\d:\d\d/);
    await expect(homeTile.locator('[data-tile-project]')).toHaveText(visit.projectName);
    // Hovering shows the exact time instead of the relative one.
    await homeTile.hover();
    await expect(homeTile.locator('.tile-exact')).toBeVisible();
    await expect(homeTile.locator('.tile-relative')).toBeHidden();

    // The project's feed: no project on the tiles, headings by day, each saying its basis.
    await page.goto(`/project/${visit.projectId}`);
    const feed = page.getByRole('region', { name: 'Project uploads' });
    await expect(feed.locator(`[data-upload-tile="${recent.id}"]`)).toBeVisible();
    await expect(feed.locator('[data-tile-project]')).toHaveCount(0);
    const headings = feed.locator('[data-day-heading]');
    await expect(headings).toHaveCount(2);
    await expect(headings.nth(0)).toContainText('Today');
    // The recent photo counts by its capture time, the plain one by its upload time.
    await expect(headings.nth(0)).toContainText(
      'by capture time, or upload time where the photo has none',
    );
    await expect(headings.nth(1)).toContainText(dayHeading(visit.olderDay));
    await expect(headings.nth(1)).toContainText('by capture time');
    const today = page.getByRole('list', { name: 'Project uploads, Today' });
    await expect(today.locator(`[data-upload-tile="${recent.id}"]`)).toBeVisible();
    await expect(today.locator(`[data-upload-tile="${plain.id}"]`)).toBeVisible();
    await expect(
      page
        .getByRole('list', { name: `Project uploads, ${dayHeading(visit.olderDay)}` })
        .locator(`[data-upload-tile="${older.id}"]`),
    ).toBeVisible();
    await screenshot(page, 'project-day-headings');
  });

  test('the viewer: keys, URL, Back, info panel, zoom and the next photo preloaded', async ({
    page,
    request,
    member,
  }) => {
    const visit = await makeVisit(request, member);
    const [recent, plain, older] = visit.uploads as [Upload, Upload, Upload];
    await signIn(page, member);
    await page.goto(`/project/${visit.projectId}`);

    const tile = page.locator(`[data-upload-tile="${recent.id}"]`);
    await tile.click();
    await expect(viewer(page)).toBeVisible();
    expect(photoParam(page)).toBe(String(recent.id));
    await expect(viewerImage(page, recent)).toBeVisible();

    // The next photo's display image is already loaded before anyone asks for it.
    await expect
      .poll(() =>
        viewerImage(page, plain).evaluate(
          (img: HTMLImageElement) => img.complete && img.naturalWidth > 0,
        ),
      )
      .toBe(true);

    // The info panel, beside the photo on a wide screen.
    const info = viewer(page).getByRole('complementary', { name: 'Photo info' });
    await expect(info.getByRole('heading', { name: recent.name })).toBeVisible();
    await expect(info).toContainText('North wall, level 2');
    await expect(info).toContainText('Apple iPhone 15 Pro');
    await expect(info.getByRole('link', { name: visit.projectName })).toBeVisible();
    await expect(
      info.getByRole('link', { name: `${member.firstname} ${member.lastname}` }),
    ).toBeVisible();
    await expect(info.getByRole('link', { name: 'Download original' })).toHaveAttribute(
      'href',
      recent.originalLink,
    );
    await screenshot(page, 'viewer');

    // Arrow keys walk the feed and the URL follows.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => photoParam(page)).toBe(String(plain.id));
    await expect(info.getByRole('heading', { name: plain.name })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => photoParam(page)).toBe(String(older.id));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => photoParam(page)).toBe(String(plain.id));
    // The on-screen buttons do the same.
    await viewer(page).getByRole('button', { name: 'Previous photo' }).click();
    await expect.poll(() => photoParam(page)).toBe(String(recent.id));

    // Wheel zoom (with Ctrl, as a trackpad pinch arrives) and the zoom buttons.
    const zoomIn = viewer(page).getByRole('button', { name: 'Zoom in' });
    const zoomOut = viewer(page).getByRole('button', { name: 'Zoom out' });
    await expect(zoomOut).toBeDisabled();
    await viewerImage(page, recent).hover();
    await page.mouse.wheel(0, -400);
    await expect(zoomOut).toBeEnabled();
    for (let i = 0; i < 8 && (await zoomOut.isEnabled()); i++) await zoomOut.click();
    await expect(zoomOut).toBeDisabled();
    await zoomIn.click();
    await expect(zoomOut).toBeEnabled();

    // Escape closes, the URL drops the photo and focus returns to the tile.
    await page.keyboard.press('Escape');
    await expect(viewer(page)).toBeHidden();
    expect(photoParam(page)).toBeNull();
    await expect(tile).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/project/${visit.projectId}$`));

    // Back closes it too, and a link to a photo opens the same photo.
    await tile.click();
    await expect(viewer(page)).toBeVisible();
    await page.goBack();
    await expect(viewer(page)).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/project/${visit.projectId}$`));

    await page.goto(`/project/${visit.projectId}?photo=${older.id}`);
    await expect(viewerImage(page, older)).toBeVisible();
    await expect(info.getByRole('heading', { name: older.name })).toBeVisible();
    // A photo on no feed of the page (another project's link) is fetched on its own.
    await page.goto(`/uploads/latest?photo=${older.id}`);
    await expect(viewerImage(page, older)).toBeVisible();
    await page.goto(`/project/${visit.projectId}?photo=999999999`);
    await expect(page.getByRole('dialog', { name: 'Photo not shown' })).toContainText(
      'does not exist',
    );
  });
});

test.describe('browsing photos on a phone', () => {
  // Phone emulation here rather than the @phone tag: the desktop project runs this too, but
  // always as a 390 px touch phone.
  test.use({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });

  test('the viewer on a phone: full-bleed over the top bar, swipe to the next photo', async ({
    page,
    request,
    member,
  }) => {
    const visit = await makeVisit(request, member);
    const [recent, plain] = visit.uploads as [Upload, Upload, Upload];
    await signIn(page, member);
    await page.goto(`/project/${visit.projectId}`);
    await page.locator(`[data-upload-tile="${recent.id}"]`).tap();
    await expect(viewerImage(page, recent)).toBeVisible();

    // Nothing of the app shows around the photo: the top bar's spot belongs to the viewer.
    const onTop = await page.evaluate(() => {
      const el = document.elementFromPoint(window.innerWidth / 2, 20);
      return el?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? null;
    });
    expect(onTop).toBe('Photo viewer');
    const box = await viewerImage(page, recent).boundingBox();
    expect(box?.width).toBeGreaterThan(370);
    await screenshot(page, 'viewer-phone');

    // A swipe to the left shows the next photo.
    const slide = viewer(page).locator('.yarl__container');
    const y = 400;
    await slide.dispatchEvent('pointerdown', {
      pointerId: 1,
      pointerType: 'touch',
      isPrimary: true,
      clientX: 300,
      clientY: y,
      buttons: 1,
    });
    for (const x of [260, 200, 140, 80]) {
      await slide.dispatchEvent('pointermove', {
        pointerId: 1,
        pointerType: 'touch',
        isPrimary: true,
        clientX: x,
        clientY: y,
        buttons: 1,
      });
    }
    await slide.dispatchEvent('pointerup', {
      pointerId: 1,
      pointerType: 'touch',
      isPrimary: true,
      clientX: 80,
      clientY: y,
    });
    await expect.poll(() => photoParam(page)).toBe(String(plain.id));

    // The info panel opens on demand, as a sheet.
    await viewer(page).getByRole('button', { name: 'Show photo info' }).tap();
    await expect(
      viewer(page).getByRole('complementary', { name: 'Photo info' }).getByRole('heading', {
        name: plain.name,
      }),
    ).toBeVisible();
    await screenshot(page, 'viewer-phone-info');
  });
});

test.describe('where a photo was taken', () => {
  // Requests a service worker handles are not seen by page.route: keep every tile routable.
  test.use({ serviceWorkers: 'block' });

  test('the info panel names the place, flags a photo far from its site and draws both on a map @phone', async ({
    page,
    request,
    member,
    baseURL,
  }) => {
    // The site in central Vienna; one photo 14 km north of it, one at the site.
    const res = await request.post('/api/project/create', {
      headers: bearer(member),
      data: {
        project: {
          name: unique('Ring road'),
          location: 'Vienna, Austria',
          latitude: 48.2082,
          longitude: 16.3738,
        },
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    const project = (await res.json()) as { id: number };
    const atSite = await uploadPhoto(
      request,
      member,
      project.id,
      unique('Gate'),
      await gpsJpeg(48.2085, 16.3721),
    );
    const far = await uploadPhoto(
      request,
      member,
      project.id,
      unique('Supplier yard'),
      await gpsJpeg(48.2082 + 14 / 111.2, 16.3738),
    );
    const tiles = await stubTiles(page, request, baseURL ?? '');
    await signIn(page, member);

    await page.goto(`/project/${project.id}?photo=${far.id}`);
    const info = page.getByRole('dialog', { name: 'Photo viewer' }).getByRole('complementary', {
      name: 'Photo info',
    });
    // Phones open the panel on demand.
    if ((page.viewportSize()?.width ?? 0) < 900)
      await page.getByRole('button', { name: 'Show photo info' }).click();
    await expect(info.locator('[data-far-from-site]')).toHaveText('Taken 14 km from the site');
    await expect(info.locator('[data-place-name]')).toContainText('Austria');
    await expect(info.getByRole('link', { name: /^48\.33\d+, 16\.37380$/ })).toBeVisible();
    await expect(info.getByText('© OpenStreetMap contributors')).toBeVisible();
    await screenshot(page, 'viewer-far-from-site');

    // The photo at the site: a place name, no flag.
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => photoParam(page)).toBe(String(atSite.id));
    await expect(info.locator('[data-place-name]')).toContainText('Vienna');
    await expect(info.locator('[data-far-from-site]')).toHaveCount(0);
    expectNoNetwork(tiles.seen);
  });
});
