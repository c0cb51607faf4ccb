import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Project, Upload } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
import { bearer, createProject, expect, signIn, test, type Account } from './fixtures.js';
import { makePhoto, uploadPhoto } from './photos.js';

/**
 * Search (issue 14): the top bar's type-ahead with the keyboard, Enter to the full page, the
 * page's filters kept in its address (reload and Back), a photo result opening the viewer, the
 * archived switch, axe, and the page on a 375 px phone. Every test searches for a word of its
 * own, so the sample workspace and other specs' data never match.
 */

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

/** A made-up word no other data holds: letters only, so it is one search word. */
const uniqueWord = () =>
  `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, (d) =>
    String.fromCharCode(97 + Number(d)),
  );

interface SearchData {
  word: string;
  rebar: Project;
  beton: Project;
  archived: Project;
  cage: Upload;
  formwork: Upload;
}

/** Two projects and a photo in each, all named with `word`, and an archived project. */
async function makeSearchData(request: APIRequestContext, admin: Account): Promise<SearchData> {
  const word = uniqueWord();
  const Word = word.charAt(0).toUpperCase() + word.slice(1);
  const rebar = await createProject(request, admin, `${Word} rebar yard`, 'Linz, Austria');
  const beton = await createProject(request, admin, `Béton plant ${Word}`, 'Lyon, France');
  const archived = await createProject(request, admin, `${Word} old store`, 'Graz, Austria');
  const cage = await uploadPhoto(
    request,
    admin,
    rebar.id,
    `Rebar cage ${Word}`,
    await makePhoto({ takenAt: new Date(2026, 2, 10, 9, 30), rgb: [60, 110, 160] }),
  );
  const formwork = await uploadPhoto(
    request,
    admin,
    beton.id,
    `Formwork ${Word}`,
    await makePhoto({ takenAt: new Date(2025, 8, 2, 14, 0), rgb: [170, 90, 60] }),
  );
  const res = await request.post(`/api/project/${archived.id}/archive`, {
    headers: bearer(admin),
  });
  expect(res.status(), await res.text()).toBe(200);
  return { word, rebar, beton, archived, cage, formwork };
}

const main = (page: Page) => page.getByRole('main');
const topSearch = (page: Page) =>
  page.getByRole('banner').getByRole('combobox', { name: 'Search' });
const suggestions = (page: Page) => page.getByRole('listbox', { name: 'Search suggestions' });

test.describe('search', () => {
  test('type-ahead in the top bar: matches while typing, walked with the keyboard, opens one', async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto('/uploads/latest');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    const box = topSearch(page);
    await box.click();
    // The start of the word is enough ("reba" finds rebar).
    const prefix = data.word.slice(0, -3);
    await box.pressSequentially(prefix, { delay: 30 });
    const list = suggestions(page);
    await expect(list).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const projects = list.getByRole('group', { name: 'Projects' });
    const photos = list.getByRole('group', { name: 'Photos' });
    await expect(projects.getByRole('option')).toHaveCount(2);
    await expect(photos.getByRole('option')).toHaveCount(2);
    // The archived project is left out of the dropdown.
    await expect(list.getByRole('option', { name: /old store/ })).toHaveCount(0);
    // The typed start is marked in each name, as written (capital and all).
    const marks = await projects.locator('mark').allTextContents();
    expect(marks.map((mark) => mark.toLowerCase())).toEqual([prefix, prefix]);
    await expect(
      list.getByRole('option', { name: `See all results for “${prefix}”` }),
    ).toBeVisible();
    await screenshot(page, 'search-dropdown');

    // Down, Down, Up: the first option is the highlighted one.
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    const options = list.getByRole('option');
    const first = options.first();
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
    await expect(box).toBeFocused();
    const name = (await first.locator('p').first().textContent())!;
    const target = [data.rebar, data.beton].find((project) => project.name === name);
    expect(target, `the first option is one of the projects: ${name}`).toBeDefined();

    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${target!.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: target!.name })).toBeVisible();
    await expect(box).toHaveValue('');
    await expect(list).toHaveCount(0);

    // Escape closes the dropdown and keeps the text.
    await box.click();
    await box.pressSequentially(data.word, { delay: 20 });
    await expect(list).toBeVisible();
    await box.press('Escape');
    await expect(list).toHaveCount(0);
    await expect(box).toHaveValue(data.word);
    // A photo option opens the viewer over the current page.
    await box.press('ArrowDown');
    await expect(list).toBeVisible();
    await list.getByRole('option', { name: new RegExp(`Rebar cage`) }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${target!.id}\\?photo=${data.cage.id}$`));
    await expect(page.getByRole('dialog', { name: 'Photo viewer' })).toBeVisible();
  });

  test('Enter opens /search?q=… with the sections found', async ({ page, admin, request }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto('/');
    const box = topSearch(page);
    await box.fill(data.word);
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${data.word}$`));
    await expect(page).toHaveTitle(`Search: ${data.word} · Sitelog`);
    await expect(main(page).getByText(`Results for “${data.word}”`, { exact: true })).toBeVisible();
    await expect(box).toHaveValue('');

    const projects = page.getByRole('list', { name: 'Projects found' });
    await expect(projects.getByRole('link')).toHaveCount(2);
    await expect(projects.getByRole('link', { name: data.rebar.name })).toHaveAttribute(
      'href',
      `/project/${data.rebar.id}`,
    );
    const photos = page.getByRole('list', { name: 'Photos' });
    await expect(photos.locator('[data-upload-tile]')).toHaveCount(2);
    // The Reports section says none match: no report holds the word.
    await expect(
      page
        .getByRole('region', { name: 'Reports' })
        .getByText(`No reports match “${data.word}”.`, { exact: true }),
    ).toBeVisible();
    await screenshot(page, 'search-page');
  });

  test('the filters live in the address: reload keeps them, Back undoes them', async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto(`/search?q=${data.word}`);
    await expect(page.getByRole('list', { name: 'Projects found' }).getByRole('link')).toHaveCount(
      2,
    );

    // The Photos section, then one project's photos.
    await page.getByRole('tab', { name: 'Photos' }).click();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${data.word}&type=uploads$`));
    await expect(page.getByRole('region', { name: 'Projects' })).toHaveCount(0);
    const filters = page.getByRole('region', { name: 'Filters' });
    await filters.getByRole('combobox', { name: 'Project' }).click();
    await filters.getByRole('combobox', { name: 'Project' }).fill(data.rebar.name);
    await page.getByRole('option', { name: data.rebar.name, exact: true }).click();
    await expect(page).toHaveURL(
      new RegExp(`/search\\?q=${data.word}&type=uploads&project=${data.rebar.id}$`),
    );
    const tiles = page.getByRole('list', { name: 'Photos' }).locator('[data-upload-tile]');
    await expect(tiles).toHaveCount(1);
    await expect(tiles.first()).toHaveAttribute('data-upload-tile', String(data.cage.id));

    // A capture-time range that holds only the formwork photo, written in the address.
    await page.goto(
      `/search?q=${data.word}&type=uploads&from=2025-09-01&to=2025-09-30&by=captured`,
    );
    await expect(tiles).toHaveCount(1);
    await expect(tiles.first()).toHaveAttribute('data-upload-tile', String(data.formwork.id));
    await expect(filters.getByLabel('From')).toHaveValue('2025-09-01');
    await expect(filters.getByRole('button', { name: 'Capture time' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // The same range by upload time (today) holds neither.
    await filters.getByRole('button', { name: 'Upload time' }).click();
    await expect(page).toHaveURL(/from=2025-09-01&to=2025-09-30$/);
    await expect(main(page).getByText(`No results for “${data.word}”`)).toBeVisible();

    // Reload keeps every filter.
    await page.reload();
    await expect(main(page).getByText(`No results for “${data.word}”`)).toBeVisible();
    await expect(filters.getByLabel('To')).toHaveValue('2025-09-30');
    await expect(filters.getByRole('button', { name: 'Upload time' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Back undoes the last change.
    await page.goBack();
    await expect(page).toHaveURL(/by=captured$/);
    await expect(tiles).toHaveCount(1);

    // Archived projects only when asked.
    await page.goto(`/search?q=${data.word}&type=projects`);
    const projects = page.getByRole('list', { name: 'Projects found' });
    await expect(projects.getByRole('link')).toHaveCount(2);
    await expect(projects.getByRole('link', { name: data.archived.name })).toHaveCount(0);
    // A click (not check()): the switch follows the address, which the click changes.
    await filters.getByRole('switch', { name: 'Include archived projects' }).click();
    await expect(page).toHaveURL(/type=projects&archived=true$/);
    const archived = projects.getByRole('link', { name: data.archived.name });
    await expect(archived).toBeVisible();
    await expect(archived.getByText('Archived')).toBeVisible();
    await page.reload();
    await expect(archived).toBeVisible();
    await expect(filters.getByRole('switch', { name: 'Include archived projects' })).toBeChecked();
  });

  test('a photo result opens the photo viewer, and closing it returns to the results', async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto(`/search?q=${data.word}&type=uploads`);
    const tile = page.locator(`[data-upload-tile="${data.cage.id}"]`);
    await tile.click();
    await expect(page).toHaveURL(
      new RegExp(`/search\\?q=${data.word}&type=uploads&photo=${data.cage.id}$`),
    );
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByText(data.cage.name).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${data.word}&type=uploads$`));
  });

  test('a report made through the API is found: the dropdown, the Reports tab, its page', async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeSearchData(request, admin);
    const made = await request.post('/api/report', {
      headers: bearer(admin),
      data: {
        projectId: data.rebar.id,
        type: 'safety',
        title: `Scaffold ${data.word}`,
        intro: 'Edge protection on level 2',
        from: '2026-03-10',
        to: '2026-03-10',
        layout: 2,
        photos: [{ uploadId: data.cage.id, caption: 'North wall' }],
      },
    });
    expect(made.status(), await made.text()).toBe(202);
    const report = (await made.json()) as { id: number; title: string };
    await signIn(page, admin);
    await page.goto('/');

    const box = topSearch(page);
    await box.click();
    await box.pressSequentially(data.word, { delay: 20 });
    const option = suggestions(page)
      .getByRole('group', { name: 'Reports' })
      .getByRole('option', { name: new RegExp(report.title) });
    await expect(option).toBeVisible();
    await expect(option).toContainText(`Safety walk · ${data.rebar.name}`);

    // The Reports tab: the report, its words marked, a link to its page.
    await page.goto(`/search?q=${data.word}%20safety&type=reports`);
    const found = page.getByRole('list', { name: 'Reports found' });
    const link = found.getByRole('link', { name: report.title });
    await expect(link).toHaveAttribute('href', `/report/${report.id}`);
    await expect(link.locator('mark')).toHaveText([data.word]);
    await expect(found.getByRole('listitem')).toHaveCount(1);
    await expect(found.getByRole('listitem')).toContainText('1 photo');
    // A report's date filter is the day it was made (today), not the days it covers.
    const filters = page.getByRole('region', { name: 'Filters' });
    await expect(filters.getByText('A report’s date is the day it was made.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'search-reports');
    await page.goto(`/search?q=${data.word}&type=reports&to=2026-03-10`);
    await expect(
      main(page).getByText(`No results for “${data.word}”`, { exact: true }),
    ).toBeVisible();

    // The report's own page opens from the hit.
    await page.goto(`/search?q=${data.word}&type=reports`);
    await found.getByRole('link', { name: report.title }).click();
    await expect(page).toHaveURL(new RegExp(`/report/${report.id}$`));
  });

  test('the search page and its dropdown pass axe', async ({ page, admin, request }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto(`/search?q=${data.word}`);
    await expect(page.getByRole('list', { name: 'Projects found' }).getByRole('link')).toHaveCount(
      2,
    );
    await expect(
      page.getByRole('list', { name: 'Photos' }).locator('[data-upload-tile]'),
    ).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);

    const box = topSearch(page);
    await box.click();
    await box.pressSequentially(data.word, { delay: 20 });
    await expect(suggestions(page).getByRole('option').first()).toBeVisible();
    await box.press('ArrowDown');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe('search on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  test('the box, the dropdown and the page fit the phone', async ({ page, admin, request }) => {
    const data = await makeSearchData(request, admin);
    await signIn(page, admin);
    await page.goto('/');
    const box = topSearch(page);
    await box.tap();
    await box.pressSequentially(data.word, { delay: 20 });
    const list = suggestions(page);
    await expect(list.getByRole('option').first()).toBeVisible();
    // The dropdown is as wide as the box, inside the screen.
    const boxRect = (await page.getByRole('banner').getByRole('search').boundingBox())!;
    const listRect = (await list.boundingBox())!;
    expect(listRect.x).toBeGreaterThanOrEqual(0);
    expect(listRect.x + listRect.width).toBeLessThanOrEqual(375);
    expect(Math.abs(listRect.width - boxRect.width)).toBeLessThan(2);
    await screenshot(page, 'search-dropdown');
    await list
      .getByRole('group', { name: 'Projects' })
      .getByRole('option', { name: new RegExp(data.rebar.name) })
      .tap();
    await expect(page).toHaveURL(new RegExp(`/project/${data.rebar.id}$`));

    await page.goto(`/search?q=${data.word}`);
    await expect(page.getByRole('list', { name: 'Projects found' }).getByRole('link')).toHaveCount(
      2,
    );
    await expect(
      page.getByRole('list', { name: 'Photos' }).locator('[data-upload-tile]'),
    ).toHaveCount(2);
    // The filters fold away behind a button on a phone.
    const filters = page.getByRole('region', { name: 'Filters' });
    await expect(filters).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Filters' });
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(filters.getByRole('combobox', { name: 'Project' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    // The five section tabs fit the phone's width: none is cut off.
    const tabs = page.getByRole('tablist', { name: 'Sections' });
    const tabsRect = (await tabs.boundingBox())!;
    const last = (await tabs.getByRole('tab', { name: 'People' }).boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(tabsRect.x + tabsRect.width + 1);
    await screenshot(page, 'search-page');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
