import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Upload } from '@sitelog/shared';
import sharp from 'sharp';
import {
  bearer,
  createProject,
  createUpload,
  expect,
  signIn,
  test,
  unique,
  type Account,
} from './fixtures.js';

/**
 * A real JPEG made here: noise does not compress, so `megapixels` decides the size and the
 * upload lasts long enough to watch its progress under a throttled connection.
 */
async function makeNoiseJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A project of the test's own to upload to. */
async function ownProjectId(request: APIRequestContext, account: Account): Promise<number> {
  return (await createProject(request, account, unique('Uploads spec'))).id;
}

/** The upload as the API answers it now. */
async function readUpload(request: APIRequestContext, account: Account, id: number) {
  const res = await request.get(`/api/upload/full/${id}`, { headers: bearer(account) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload;
}

/** Chooses a file in the uploader through its "Choose photos" control. */
async function chooseFile(page: Page, name: string, buffer: Buffer, mimeType = 'image/jpeg') {
  await page.getByLabel('Choose photos').setInputFiles({ name, mimeType, buffer });
}

/** Slows the upload down (bytes per second) so the progress bar is seen moving. */
async function throttleUpload(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
  };
}

const uploadIdFromLink = (href: string | null) => {
  const match = /^\/upload\/(\d+)$/.exec(href ?? '');
  if (!match?.[1]) throw new Error(`not a link to an upload: ${href}`);
  return Number(match[1]);
};

async function pageAs(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

test.describe('uploads', () => {
  test('uploads two photos, edits one, deletes it; another member sees no EDIT', async ({
    page,
    admin,
    member,
    request,
    browser,
  }) => {
    const projectId = await ownProjectId(request, admin);
    const firstName = unique('Rebar north wall');
    const firstDescription = 'Checked before the pour.';
    await signIn(page, admin);

    // 1. Choose a photo: it shows at once as a tile and is sent in the background, with progress.
    await page.goto(`/uploader/${projectId}/create`);
    await expect(page.getByRole('heading', { name: 'Add photos' })).toBeVisible();
    await page.getByLabel('Name').fill(firstName);
    await page.getByLabel('Description').fill(firstDescription);
    const bigPhoto = await makeNoiseJpeg(1200, 900);
    const unthrottle = await throttleUpload(page, 400_000);
    await chooseFile(page, 'north-wall.jpg', bigPhoto);
    const visit = page.getByRole('list', { name: 'Photos of this visit' });
    const progress = visit.getByRole('progressbar');
    await expect(progress).toBeVisible();
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await unthrottle();
    const firstTile = visit.getByRole('listitem').filter({ hasText: firstName });
    await expect(firstTile.getByText('Sent', { exact: true })).toBeVisible({ timeout: 30_000 });
    const firstId = uploadIdFromLink(await firstTile.getByRole('link').getAttribute('href'));

    // 2. The camera stays ready: the next photo is one more choice on the same page.
    await chooseFile(page, 'second.jpg', await makeNoiseJpeg(640, 480));
    await expect(visit.getByRole('listitem')).toHaveCount(2);
    await expect(visit.getByText('Sent', { exact: true })).toHaveCount(2, { timeout: 30_000 });
    const hrefs = await visit
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    const secondId = hrefs.map(uploadIdFromLink).find((id) => id !== firstId)!;
    expect(secondId).toBeGreaterThan(0);

    // 3. The batch editor lists the visit, with what was typed before choosing; DONE.
    await page.getByRole('link', { name: 'Name and describe' }).click();
    await expect(page.getByRole('heading', { name: 'Name and describe' })).toBeVisible();
    await expect(page.getByLabel('Name of photo 1')).toHaveValue(firstName);
    await expect(page.getByLabel('Description of photo 1')).toHaveValue(firstDescription);
    await expect(page.getByLabel('Name of photo 2')).toHaveValue(firstName);
    await page.getByRole('button', { name: 'Done' }).click();

    // 4. Both tiles on the project page and the first on Home. "today" is counted in the
    // browser's calendar days from the upload time the server set: the browser clock is pinned
    // to that instant, so a run across midnight still reads "today".
    await page.clock.setFixedTime(new Date((await readUpload(request, admin, firstId)).createdAt));
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}$`));
    await expect(page.locator(`main [data-upload-tile="${firstId}"]`)).toBeVisible();
    await expect(page.locator(`main [data-upload-tile="${secondId}"]`)).toBeVisible();
    await page.goto('/');
    const homeTile = page
      .getByRole('region', { name: 'Latest uploads' })
      .locator(`[data-upload-tile="${firstId}"]`);
    await expect(homeTile).toBeVisible();
    await expect(homeTile.getByRole('img', { name: firstName })).toBeVisible();
    await expect(homeTile).toContainText('today');

    // 5. Open it: full screen over Home, then its own page with details, the image, EDIT.
    await homeTile.click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await expect(viewer.getByRole('heading', { name: firstName })).toBeVisible();
    await viewer.getByRole('link', { name: 'Photo page' }).click();
    await expect(page).toHaveURL(new RegExp(`/upload/${firstId}$`));
    await expect(page.getByRole('heading', { level: 1, name: firstName })).toBeVisible();
    await expect(page.getByText('Uploaded today')).toBeVisible();
    await expect(page.getByText(firstDescription)).toBeVisible();
    const image = page.getByRole('img', { name: firstName });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: 'Download original' })).toHaveAttribute(
      'href',
      /.+/,
    );

    // 6. Another member sees the upload without EDIT, and no editor.
    const memberPage = await pageAs(browser, member);
    await memberPage.goto(`/upload/${firstId}`);
    await expect(memberPage.getByRole('heading', { level: 1, name: firstName })).toBeVisible();
    await expect(memberPage.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await memberPage.goto(`/upload/${firstId}/edit`);
    await expect(memberPage.getByText(/Only the creator of this photo/)).toBeVisible();
    await expect(memberPage.getByLabel('Name')).toHaveCount(0);
    await expect(memberPage.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await memberPage.context().close();

    // 7. EDIT: SAVE only after a change.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(new RegExp(`/upload/${firstId}/edit$`));
    await expect(page.getByLabel('Name')).toHaveValue(firstName);
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    await page.getByLabel('Description').fill('Poured on schedule.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    expect(await readUpload(request, admin, firstId)).toMatchObject({
      name: firstName,
      description: 'Poured on schedule.',
      project: { id: projectId },
    });

    // 8. DELETE, confirmed: back on the project page, the tile is gone.
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${projectId}$`));
    await expect(page.locator(`main [data-upload-tile="${secondId}"]`)).toBeVisible();
    await expect(page.locator(`main [data-upload-tile="${firstId}"]`)).toHaveCount(0);
    const gone = await request.get(`/api/upload/full/${firstId}`, { headers: bearer(admin) });
    expect(gone.status()).toBe(404);
  });

  test("shows the server's message when a file is refused", async ({ page, admin, request }) => {
    const projectId = await ownProjectId(request, admin);
    await signIn(page, admin);
    await page.goto(`/uploader/${projectId}/create`);
    // A JPEG name and type on bytes that are not an image: the server decides from the bytes.
    await chooseFile(page, 'not-a-photo.jpg', Buffer.from('<?php echo "hi"; ?>'));
    const tile = page
      .getByRole('list', { name: 'Photos of this visit' })
      .getByRole('listitem')
      .filter({ hasText: 'Not accepted' });
    await expect(tile).toBeVisible({ timeout: 20_000 });
    await expect(tile).toContainText(/not .*image/i);
    await expect(tile).not.toContainText('The server answered with an error');
    await expect(tile.getByRole('button', { name: 'Retry not-a-photo.jpg' })).toBeVisible();
    await expect(tile.getByRole('button', { name: 'Discard not-a-photo.jpg' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/uploader/${projectId}/create$`));
  });

  test('an unknown upload or project says so', async ({ page, admin }) => {
    await signIn(page, admin);
    await page.goto('/upload/999999');
    await expect(page.getByRole('heading', { name: 'Photo not found' })).toBeVisible();
    await page.goto('/uploader/999999/create');
    await expect(page.getByText('This project does not exist.')).toBeVisible();
  });

  test('upload screens never scroll sideways (375px wide on the phone project) @phone', async ({
    page,
    admin,
    request,
  }) => {
    const projectId = await ownProjectId(request, admin);
    const upload = await createUpload(request, admin, projectId, unique('Phone photo'));
    await signIn(page, admin);
    const screens = [
      `/uploader/${projectId}/create`,
      '/uploads/latest',
      '/',
      `/upload/${upload.id}`,
      `/upload/${upload.id}/edit`,
    ];
    for (const path of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeAttached();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });
});
