import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Upload } from '@sitelog/shared';
import sharp from 'sharp';
import { seriousViolations } from './axe.js';
import { bearer, createProject, expect, signIn, test, unique, type Account } from './fixtures.js';
import { makePhoto } from './photos.js';

/**
 * Photo reports (issue 16), the whole way through the browser: five photos made through the API,
 * the project page's NEW REPORT, the creator (a photo taken out and put back, one left out, the
 * order changed with the keyboard on a drag handle, with MOVE UP and by dragging with the mouse),
 * GENERATE REPORT, the report's page from queued to ready, the PDF downloaded, its first page
 * rendered to a PNG by Debian's poppler (`pdftoppm`, kept under e2e/.artifacts/reports/) and its
 * text (`pdftotext`) holding the photos in the order chosen.
 */

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '.artifacts');
const screenshotsDir = path.join(artifacts, 'screenshots');
const reportsDir = path.join(artifacts, 'reports');

async function screenshot(page: Page, name: string) {
  const dir = path.join(screenshotsDir, String(page.viewportSize()?.width ?? 0));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Uploads a photo of one colour with a description (its caption in the report to begin with). */
async function uploadPhoto(
  request: APIRequestContext,
  account: Account,
  projectId: number,
  name: string,
  description: string,
  rgb: [number, number, number],
): Promise<Upload> {
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(account),
    multipart: {
      file: {
        name: 'photo.jpg',
        mimeType: 'image/jpeg',
        buffer: await makePhoto({ rgb, width: 1200, height: 900 }),
      },
      createUploadDto: JSON.stringify({ name, description, projectId }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload;
}

const NAMES = ['Alpha abutment', 'Bravo bearing', 'Charlie column', 'Delta deck', 'Echo joint'];
const COLOURS: [number, number, number][] = [
  [180, 60, 50],
  [60, 140, 70],
  [50, 90, 170],
  [200, 170, 40],
  [120, 70, 150],
];
/** Each photo's description: one word of its own, so the PDF's text finds each once. */
const captionOf = (name: string) => `Evidence ${name.split(' ')[0]!.toLowerCase()}zz as found.`;

const reportList = (page: Page) =>
  page.getByRole('list', { name: 'Photos in the report, in order' });

/** The report's photos, by name, in the order the creator lists them. */
async function order(page: Page): Promise<string[]> {
  const labels = await reportList(page)
    .locator(':scope > li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  return labels.map((label) => label.replace(/^\d+\. /, ''));
}

const handle = (page: Page, name: string): Locator =>
  reportList(page).getByRole('button', { name: `Reorder ${name}` });

/** Drags `name`'s handle with the mouse onto `target`'s row, in small steps as a hand does. */
async function drag(page: Page, name: string, target: string) {
  // Both rows on screen: the target's in the middle of the window.
  await handle(page, target).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const from = await handle(page, name).boundingBox();
  const to = await handle(page, target).boundingBox();
  if (!from || !to) throw new Error('drag handles not on screen');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past dnd-kit's 4 px activation distance first, then to the target, then a little further up
  // so the dragged row's centre passes the target's.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 - 8, { steps: 20 });
  await page.mouse.up();
}

/** The text of a PDF, as poppler reads it (reading order, no layout). */
const pdfText = (file: string) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });

test.describe('reports', () => {
  test('from the project page: pick and reorder photos, generate, watch it made, download the PDF, render its first page', async ({
    page,
    admin,
    request,
  }) => {
    // Five uploads, a PDF made on a loaded machine, pdftoppm: generous.
    test.setTimeout(240_000);
    const project = await createProject(
      request,
      admin,
      unique('Report bridge'),
      'Basel, Switzerland',
    );
    // Uploaded one after the other: the report starts with them in this order (oldest first).
    for (const [i, name] of NAMES.entries())
      await uploadPhoto(request, admin, project.id, name, captionOf(name), COLOURS[i]!);

    await signIn(page, admin);
    await page.goto(`/project/${project.id}`);
    const reports = page.getByRole('region', { name: 'Reports' });
    await reports.getByRole('link', { name: 'New report' }).click();
    await expect(page).toHaveURL(new RegExp(`/reports/create\\?project=${project.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Create a report' })).toBeVisible();

    // Today's photos are in the report to begin with, captioned from their descriptions.
    await expect(page.getByRole('heading', { name: 'In the report: 5 photos' })).toBeVisible({
      timeout: 30_000,
    });
    expect(await order(page)).toEqual(NAMES);
    await expect(page.getByLabel('Caption for Delta deck')).toHaveValue(captionOf('Delta deck'));
    await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue(
      /^Daily site report – \d{1,2} \w{3} \d{4}$/,
    );

    // Picked and unpicked in the grid: Echo taken out and put back (at the end, where it was);
    // Bravo left out.
    const grid = page.getByRole('list', { name: 'The project’s photos' });
    await grid.getByRole('checkbox', { name: 'Echo joint' }).uncheck();
    await expect(page.getByRole('heading', { name: 'In the report: 4 photos' })).toBeVisible();
    await grid.getByRole('checkbox', { name: 'Echo joint' }).check();
    await grid.getByRole('checkbox', { name: 'Bravo bearing' }).uncheck();
    await expect
      .poll(() => order(page))
      .toEqual(['Alpha abutment', 'Charlie column', 'Delta deck', 'Echo joint']);

    // With the keyboard on Delta's drag handle: Space, up twice, Space; each step is announced
    // (dnd-kit's live region, in our words), and the next key waits for it.
    const announced = page.locator('[id^="DndLiveRegion"]');
    await handle(page, 'Delta deck').focus();
    await page.keyboard.press('Space');
    await expect(announced).toHaveText('Picked up Delta deck, position 3 of 4.');
    // dnd-kit's keyboard sensor listens for the arrow keys from a timer set at the pick-up
    // (setTimeout 0), and the announcement can come first on a loaded machine. A timer of ours,
    // set after that one, runs after it.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    await page.keyboard.press('ArrowUp');
    await expect(announced).toHaveText('Delta deck is over position 2 of 4.');
    await page.keyboard.press('ArrowUp');
    await expect(announced).toHaveText('Delta deck is over position 1 of 4.');
    await page.keyboard.press('Space');
    await expect(announced).toHaveText('Delta deck dropped at position 1 of 4.');
    await expect
      .poll(() => order(page))
      .toEqual(['Delta deck', 'Alpha abutment', 'Charlie column', 'Echo joint']);
    // MOVE DOWN, keeping the focus on the moved photo.
    await page.getByRole('button', { name: 'Move Alpha abutment down' }).click();
    await expect(page.getByRole('button', { name: 'Move Alpha abutment down' })).toBeFocused();
    await expect
      .poll(() => order(page))
      .toEqual(['Delta deck', 'Charlie column', 'Alpha abutment', 'Echo joint']);
    // And with the mouse: Echo dragged onto Charlie's place.
    await drag(page, 'Echo joint', 'Charlie column');
    const chosen = ['Delta deck', 'Echo joint', 'Charlie column', 'Alpha abutment'];
    await expect.poll(() => order(page)).toEqual(chosen);

    await page.getByLabel('Caption for Echo joint').fill('Echo joint, sealed at 14:00.');
    await page.getByRole('radio', { name: '1 photo per page' }).check();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('group', { name: 'Page 2' })).toContainText(
      captionOf('Delta deck'),
    );
    await expect(preview.getByRole('group', { name: 'Page 3' })).toContainText(
      'Echo joint, sealed at 14:00.',
    );
    await screenshot(page, 'report-creator');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await screenshot(page, 'report-creator');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Every status the report's page shows is noted, from the first (the creator's answer): the
    // app moves there without loading a new document, so an observer set now sees it all.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { reportStatuses: string[] }).reportStatuses = seen;
      const note = () => {
        const status = document.querySelector('[data-report-status]');
        const value = status?.getAttribute('data-report-status');
        if (value && seen.at(-1) !== value) seen.push(value);
      };
      new MutationObserver(note).observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-report-status'],
      });
    });
    await page.getByRole('button', { name: 'Generate report' }).click();
    await expect(page).toHaveURL(/\/report\/\d+$/);
    const reportId = Number(new URL(page.url()).pathname.split('/').at(-1));
    const status = page.locator('[data-report-status]');
    // Made off the request path: waiting or being made first, then ready (polled every second).
    await expect(status).toHaveText(/Waiting to start…|Generating…|Report ready/);
    await expect(status).toHaveText('Report ready', { timeout: 120_000 });
    const seen = await page.evaluate(
      () => (window as unknown as { reportStatuses?: string[] }).reportStatuses ?? [],
    );
    expect(seen[0]).toBe('queued');
    expect(seen.at(-1)).toBe('ready');
    await screenshot(page, 'report-ready');

    // The PDF, downloaded as a user does.
    mkdirSync(reportsDir, { recursive: true });
    const downloading = page.waitForEvent('download');
    await page
      .getByRole('link', { name: /^Download/ })
      .first()
      .click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const pdfFile = path.join(reportsDir, `report-${reportId}.pdf`);
    await download.saveAs(pdfFile);
    expect(readFileSync(pdfFile).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Its first page (the cover) as a PNG at 60 dpi, kept as the run's artifact.
    const pngBase = path.join(reportsDir, `report-${reportId}-page-1`);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      pdfFile,
      pngBase,
    ]);
    const png = `${pngBase}.png`;
    expect(statSync(png).size).toBeGreaterThan(5_000);
    const meta = await sharp(png).metadata();
    // A4 at 60 dpi: 496 × 702 px.
    expect(meta.format).toBe('png');
    expect(meta.width).toBeGreaterThanOrEqual(490);
    expect(meta.width).toBeLessThanOrEqual(500);
    expect(meta.height).toBeGreaterThanOrEqual(695);
    expect(meta.height).toBeLessThanOrEqual(710);
    // Not a blank page: the cover's text leaves dark pixels.
    const { channels } = await sharp(png).greyscale().stats();
    expect(channels[0]!.min).toBeLessThan(100);

    // The photos in the PDF in the order chosen: their captions on the photo pages, their names
    // in the photo index; the photo left out nowhere.
    const text = pdfText(pdfFile);
    const indexAt = text.lastIndexOf('Photo index');
    expect(indexAt).toBeGreaterThan(0);
    const captionOrder = [
      captionOf('Delta deck'),
      'Echo joint, sealed at 14:00.',
      captionOf('Charlie column'),
      captionOf('Alpha abutment'),
    ];
    const at = captionOrder.map((caption) => text.indexOf(caption));
    expect(at.every((i) => i >= 0 && i < indexAt)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const index = text.slice(indexAt);
    const names = chosen.map((name) => index.indexOf(name));
    expect(names.every((i) => i >= 0)).toBe(true);
    expect([...names].sort((a, b) => a - b)).toEqual(names);
    expect(text).not.toContain('Bravo bearing');
    expect(text).not.toContain(captionOf('Bravo bearing'));
  });
});
