import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Project, Upload } from '@sitelog/shared';
import {
  apiLogin,
  bearer,
  expect,
  makeJpeg,
  signIn,
  test,
  unique,
  type Account,
} from './fixtures.js';

/**
 * Long content (issue 13, §5): a 120-character project name reads whole on a phone, long
 * descriptions collapse, All projects is a list of cards on a phone, cards in a row are one
 * height, and a name cut with an ellipsis shows whole on hover and keyboard focus. Phone-sized
 * tests set their own viewport, so the whole file runs once, in the desktop project.
 */

const screenshotsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '.artifacts',
  'screenshots',
);

async function screenshot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  const dir = path.join(screenshotsDir, String(width), 'long-content');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

/** `text` grown with words to exactly `length` characters, ending in a letter. */
function ofLength(text: string, length: number): string {
  const words = ' north facade scaffold level three formwork east wing';
  let out = text;
  while (out.length < length) out += words;
  out = out.slice(0, length);
  return out.endsWith(' ') ? `${out.slice(0, -1)}x` : out;
}

async function createProject(
  request: APIRequestContext,
  account: Account,
  project: { name: string; location?: string; description?: string },
): Promise<Project> {
  const res = await request.post('/api/project/create', {
    headers: bearer(account),
    data: { project: { location: 'Vienna, Austria', description: '', ...project } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Project;
}

/** A new member of the team, signed in: a workspace of their own bookmarks. */
async function newMember(request: APIRequestContext, admin: Account): Promise<Account> {
  const email = `${unique('long').replace(/\W+/g, '.')}@example.com`;
  const password = `Kestrel-gravel-${Math.random().toString(36).slice(2, 10)}-tarmac`;
  const res = await request.post('/api/user/create', {
    headers: bearer(admin),
    data: { user: { email, firstname: 'Lou', lastname: 'Longname', password } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return apiLogin(request, email, password);
}

/** Presses Tab until `target` has the focus (at most `max` times). */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`could not reach ${target.toString()} with Tab`);
}

const sideways = (page: Page) =>
  page.evaluate(
    () =>
      Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth,
  );

test.describe('at 375 px', () => {
  test.use(phone);

  test('a 120-character project name reads whole on the project page', async ({
    page,
    admin,
    request,
  }) => {
    const name = ofLength(unique('Long name'), 120);
    expect(name).toHaveLength(120);
    const project = await createProject(request, admin, { name });
    await signIn(page, admin);
    await page.goto(`/project/${project.id}`);

    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(name);
    // Wrapped over several lines inside the screen, not cut: nothing of it is hidden.
    const box = await heading.evaluate((element) => {
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      return {
        left: rect.left,
        right: rect.right,
        height: rect.height,
        lineHeight: Number.parseFloat(style.lineHeight),
        cutSideways: element.scrollWidth > element.clientWidth,
        cutDown: element.scrollHeight > element.clientHeight,
        ellipsis: style.textOverflow === 'ellipsis',
        nowrap: style.whiteSpace === 'nowrap',
      };
    });
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(375);
    expect(box.height).toBeGreaterThan(2 * box.lineHeight);
    expect(box).toMatchObject({
      cutSideways: false,
      cutDown: false,
      ellipsis: false,
      nowrap: false,
    });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'project-long-name');
  });

  test('All projects is a list of cards with the filter and sort of the table, and nothing scrolls sideways', async ({
    page,
    admin,
    request,
  }) => {
    const prefix = unique('Cards');
    // Made in this order, so newest activity first is Charlie, Bravo, Alpha.
    for (const word of ['Alpha', 'Bravo', 'Charlie']) {
      await createProject(request, admin, {
        name: `${prefix} ${word}`,
        location: word === 'Bravo' ? ofLength('Am langen Weg 7, Wien', 200) : 'Graz, Austria',
      });
    }
    await createProject(request, admin, { name: ofLength(`${prefix} Delta long`, 120) });
    await signIn(page, admin);
    await page.goto('/projects/all');

    const cards = page.getByRole('list', { name: 'All projects' });
    await expect(cards).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByLabel('Filter projects').fill(prefix);
    const names = cards.getByRole('listitem').getByRole('link');
    await expect(names).toHaveText([
      ofLength(`${prefix} Delta long`, 120),
      `${prefix} Charlie`,
      `${prefix} Bravo`,
      `${prefix} Alpha`,
    ]);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'all-projects-cards');

    await page.getByLabel('Sort by').selectOption({ label: 'Name' });
    await expect(page.getByLabel('Order')).toHaveValue('asc');
    await expect(names).toHaveText([
      `${prefix} Alpha`,
      `${prefix} Bravo`,
      `${prefix} Charlie`,
      ofLength(`${prefix} Delta long`, 120),
    ]);
    await page.getByLabel('Order').selectOption({ label: 'Z to A' });
    await expect(names.first()).toHaveText(ofLength(`${prefix} Delta long`, 120));
    await expect(page).toHaveURL(/sort=name&dir=desc/);

    await page.getByLabel('Filter projects').fill(`${prefix} Bravo`);
    await expect(names).toHaveText([`${prefix} Bravo`]);
    // A tap anywhere on the card opens the project (here on its location line).
    await cards
      .getByRole('listitem')
      .first()
      .click({ position: { x: 40, y: 50 } });
    await expect(page).toHaveURL(/\/project\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${prefix} Bravo`);

    // From sm up it is the table again.
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto('/projects/all');
    await expect(page.getByRole('table', { name: 'All projects' })).toBeVisible();
  });
});

test('a 2,300-character description is collapsed, and Show more / Show less toggle it', async ({
  page,
  admin,
  request,
}) => {
  const description = `Scope of works.\n\n${ofLength('Pour the slab of level 3 after the rebar check.', 2_280)}`;
  expect(description.length).toBeGreaterThanOrEqual(2_290);
  const project = await createProject(request, admin, { name: unique('Long text'), description });
  const short = await createProject(request, admin, {
    name: unique('Short text'),
    description: 'Two lines.\nThat is all.',
  });
  await signIn(page, admin);

  await page.goto(`/project/${project.id}`);
  const more = page.getByRole('button', { name: 'Show more' });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const text = page.locator(`[id="${await more.getAttribute('aria-controls')}"]`);
  const measure = () =>
    text.evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      hidden: element.scrollHeight - element.clientHeight,
      lines:
        element.getBoundingClientRect().height /
        Number.parseFloat(getComputedStyle(element).lineHeight),
    }));
  const collapsed = await measure();
  expect(collapsed.lines).toBeLessThanOrEqual(6.1);
  expect(collapsed.hidden).toBeGreaterThan(100);
  // The uploads are on the first screen, not two screens down.
  const uploads = page.getByRole('heading', { level: 2, name: /^Uploads/ });
  expect((await uploads.boundingBox())?.y ?? Infinity).toBeLessThan(800);
  await expect(text).toContainText('Scope of works.');

  await more.click();
  const less = page.getByRole('button', { name: 'Show less' });
  await expect(less).toHaveAttribute('aria-expanded', 'true');
  const expanded = await measure();
  expect(expanded.hidden).toBeLessThanOrEqual(0);
  expect(expanded.height).toBeGreaterThan(collapsed.height * 2);
  // Whole, as typed: its line break kept (innerText shows what is drawn).
  expect(await text.innerText()).toContain('Scope of works.\n\nPour the slab');

  await less.click();
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  expect((await measure()).height).toBeCloseTo(collapsed.height, 0);

  // A short description has no button.
  await page.goto(`/project/${short.id}`);
  await expect(page.getByText('That is all.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Show (more|less)/ })).toHaveCount(0);

  // The upload page's description collapses the same way.
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(admin),
    multipart: {
      file: { name: 'long.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg() },
      createUploadDto: JSON.stringify({
        name: unique('Long photo'),
        description,
        projectId: project.id,
      }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const upload = (await res.json()) as Upload;
  await page.goto(`/upload/${upload.id}`);
  const uploadMore = page.getByRole('main').getByRole('button', { name: 'Show more' });
  await expect(uploadMore).toHaveAttribute('aria-expanded', 'false');
  await uploadMore.click();
  await expect(page.getByRole('main').getByRole('button', { name: 'Show less' })).toBeVisible();
});

test('project cards in a row are one height, and a cut location shows whole on hover and focus', async ({
  page,
  admin,
  request,
}) => {
  test.setTimeout(120_000);
  const member = await newMember(request, admin);
  const longLocation = ofLength('Baustelle Nordbahnhof, Bauteil C, Zufahrt über', 200);
  const projects = [
    await createProject(request, member, { name: unique('Short') }),
    await createProject(request, member, { name: ofLength(unique('Very long name'), 120) }),
    await createProject(request, member, { name: unique('Far away'), location: longLocation }),
    await createProject(request, member, { name: unique('Plain') }),
  ];
  for (const project of projects) {
    const res = await request.get(`/api/project/${project.id}/favor`, { headers: bearer(member) });
    expect(res.status(), await res.text()).toBe(200);
  }
  await signIn(page, member);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const grid = page.getByRole('list', { name: 'Bookmarked projects' });
    await expect(grid.getByRole('listitem')).toHaveCount(4);
    const cards = await grid.locator('li > .MuiCard-root').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { top: Math.round(box.top), height: Math.round(box.height) };
      }),
    );
    const rows = new Map<number, number[]>();
    for (const card of cards) rows.set(card.top, [...(rows.get(card.top) ?? []), card.height]);
    // Four tiles in one row on a desktop, two rows of two on a phone: the long name's tile
    // shares its row with a short one.
    expect([...rows.values()].map((heights) => heights.length)).toEqual(
      width === 1280 ? [4] : [2, 2],
    );
    for (const heights of rows.values()) expect(new Set(heights).size, `${width}px`).toBe(1);
    if (width === 375) await screenshot(page, 'bookmarks');
  }

  // The location line of a tile is cut; its whole text is a tooltip away, by mouse or keyboard.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const far = page.getByRole('link', { name: new RegExp(projects[2]!.name) });
  await far.hover();
  await expect(page.getByRole('tooltip')).toHaveText(longLocation);
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await tabTo(page, far);
  await expect(page.getByRole('tooltip')).toHaveText(longLocation);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  // A tile whose texts fit shows none.
  await page.getByRole('link', { name: new RegExp(projects[0]!.name) }).hover();
  await page.waitForTimeout(300);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('a photo name cut on its tile shows whole on hover and keyboard focus', async ({
  page,
  admin,
  request,
}) => {
  const project = await createProject(request, admin, { name: unique('Tiles') });
  const name = ofLength(unique('Long photo name'), 200);
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(admin),
    multipart: {
      file: { name: 'tile.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg() },
      createUploadDto: JSON.stringify({ name, projectId: project.id }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const upload = (await res.json()) as Upload;
  await signIn(page, admin);
  await page.goto(`/project/${project.id}`);

  const tile = page.locator(`a[data-upload-tile="${upload.id}"]`);
  await expect(tile.getByRole('img', { name })).toBeVisible();
  await tile.hover();
  // Only the cut name: the author's name fits.
  await expect(page.getByRole('tooltip')).toHaveText(name);
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await tabTo(page, tile);
  await expect(page.getByRole('tooltip')).toHaveText(name);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});
