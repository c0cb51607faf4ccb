import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Project } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
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

const screenshotsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '.artifacts',
  'screenshots',
);

async function screenshot(page: Page, name: string) {
  const dir = path.join(screenshotsDir, String(page.viewportSize()?.width ?? 0));
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

async function readProject(
  request: APIRequestContext,
  account: Account,
  id: number,
): Promise<Project> {
  const res = await request.get(`/api/project/id/${id}`, { headers: bearer(account) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Project;
}

const fullName = (person: { firstname: string; lastname: string }) =>
  `${person.firstname} ${person.lastname}`;
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
/** True when the page is wider than the viewport (a horizontal scroll bar on a phone). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Waits until no loading placeholder is left in the page's main area. */
async function loaded(page: Page) {
  await expect(page.getByRole('main').getByRole('status', { name: /^Loading/ })).toHaveCount(0);
}

/**
 * All projects, filtered to `name`: the project's link in the table (none or one), once the rows
 * are in. (The "No projects match" row names it too, so rows are not counted by their text.)
 */
async function allProjectsLinksNamed(page: Page, name: string) {
  await menu(page).getByRole('link', { name: 'All projects' }).click();
  const table = page.getByRole('table', { name: 'All projects' });
  await expect(table).toBeVisible();
  await page.getByLabel('Filter projects').fill(name);
  await expect(page).toHaveURL(/[?&]q=/);
  return table.getByRole('link', { name, exact: true });
}

async function myProjectsLinksNamed(page: Page, name: string) {
  await menu(page).getByRole('link', { name: 'My projects' }).click();
  await expect(h1(page, 'My projects')).toBeVisible();
  await loaded(page);
  return page.getByRole('main').getByRole('link', { name: new RegExp(name) });
}

test.describe('archive', () => {
  test('archives a project from its page, lists it under Archived projects with who and when, keeps its photo viewable marked Archived, and restores it', async ({
    page,
    request,
    member,
  }) => {
    const name = unique('Finished Depot');
    const made = await createProject(request, member, name, 'Graz, Austria');
    const photo = await createUpload(request, member, made.id, unique('Handover walkthrough'));
    await signIn(page, member);

    // Archive from the project page, after the confirmation.
    await page.goto(`/project/${made.id}`);
    await expect(h1(page, name)).toBeVisible();
    await page.getByRole('button', { name: 'Archive project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive this project?' });
    await expect(dialog).toContainText('hidden from My projects, All projects');
    await expect(dialog).toContainText('read-only');
    await expect(dialog).toContainText('restore it');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'archive-dialog');
    await dialog.getByRole('button', { name: 'Archive project' }).click();
    await expect(dialog).toBeHidden();

    // The user stays on the page, which is now read-only and says who archived it and when.
    await expect(page).toHaveURL(new RegExp(`/project/${made.id}$`));
    const banner = page.getByRole('region', { name: 'Archived' });
    await expect(banner).toBeVisible();
    await expect(banner).toBeFocused();
    await expect(banner).toContainText(`Archived by ${fullName(member)} on`);
    const stored = await readProject(request, member, made.id);
    expect(stored.archivedAt).toBeTruthy();
    expect(stored.archivedBy?.id).toBe(member.id);
    await expect(banner.locator('time')).toHaveAttribute('datetime', stored.archivedAt!);
    for (const label of ['Bookmark', 'Follow', 'Edit', 'Archive project'])
      await expect(page.getByRole('button', { name: label, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Restore' })).toBeVisible();
    const uploads = page.getByRole('region', { name: 'Uploads' });
    await expect(uploads.locator(`[data-upload-tile="${photo.id}"]`)).toBeVisible();
    await expect(uploads.getByRole('link', { name: /add upload/i })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'project-archived');

    // It has left All projects and My projects (the lists were refreshed in place).
    await expect(await allProjectsLinksNamed(page, name)).toHaveCount(0);
    await expect(page.getByText(`No projects match “${name}”.`)).toBeVisible();
    await expect(await myProjectsLinksNamed(page, name)).toHaveCount(0);

    // /projects/archived lists it with who archived it and when, its place and its photo count.
    await menu(page).getByRole('link', { name: 'Archive' }).click();
    await expect(h1(page, 'Archived projects')).toBeVisible();
    const table = page.getByRole('table', { name: 'Archived projects' });
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('link', { name })).toHaveAttribute('href', `/project/${made.id}`);
    await expect(row).toContainText('Graz, Austria');
    await expect(row.getByRole('link', { name: fullName(member) })).toHaveAttribute(
      'href',
      `/profile/${member.id}`,
    );
    await expect(row.locator('time')).toHaveAttribute('datetime', stored.archivedAt!);
    await expect(row.getByRole('cell').nth(3)).toHaveText('1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'projects-archived');

    // Its photo still opens by link, marked Archived, without EDIT; the viewer marks it too.
    await page.goto(`/upload/${photo.id}`);
    await expect(h1(page, photo.name)).toBeVisible();
    const projectLink = page.getByRole('main').getByRole('link', { name, exact: true });
    await expect(projectLink).toBeVisible();
    await expect(projectLink.locator('..')).toContainText('Archived');
    await expect(page.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0);
    await screenshot(page, 'upload-archived');
    await page.goto(`/projects/archived?photo=${photo.id}`);
    const info = page
      .getByRole('dialog', { name: 'Photo viewer' })
      .getByRole('complementary', { name: 'Photo info' });
    await expect(info.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(info.getByText('Archived', { exact: true })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'viewer-archived');
    await page.keyboard.press('Escape');

    // The phone layout: a card per archived project, nothing sideways.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/projects/archived');
    const cards = page.getByRole('list', { name: 'Archived projects' });
    const card = cards.getByRole('listitem').filter({ hasText: name });
    await expect(card).toContainText(`Archived by ${fullName(member)} on`);
    await expect(card).toContainText('1 photo');
    await expect(card.getByRole('button', { name: `Restore ${name}` })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'projects-archived');
    await page.goto(`/project/${made.id}`);
    await expect(page.getByRole('region', { name: 'Archived' })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'project-archived');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Restore from /projects/archived, after the confirmation.
    await page.goto('/projects/archived');
    await table
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Restore ${name}` })
      .click();
    const restore = page.getByRole('dialog', { name: 'Restore this project?' });
    await expect(restore).toContainText(name);
    await restore.getByRole('button', { name: 'Restore' }).click();
    await expect(restore).toBeHidden();
    const notice = page.getByRole('status').filter({ hasText: 'is restored' });
    await expect(notice).toContainText(`“${name}” is restored and back in the project lists.`);
    await expect(notice).toBeFocused();
    await expect(page.getByRole('main').getByRole('link', { name, exact: true })).toHaveCount(0);
    const restored = await readProject(request, member, made.id);
    expect(restored.archivedAt ?? null).toBeNull();

    // Back in the lists, and its page is open again.
    await expect(await allProjectsLinksNamed(page, name)).toHaveCount(1);
    await expect(await myProjectsLinksNamed(page, name)).toHaveCount(1);
    await page.goto(`/project/${made.id}`);
    await expect(h1(page, name)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Archived' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Bookmark' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Archive project' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Uploads' }).getByRole('link', { name: /add upload/i }),
    ).toBeVisible();
  });

  test('shows another member an archived project read-only, without RESTORE', async ({
    page,
    request,
    admin,
    member,
  }) => {
    const name = unique('Closed Quay');
    const made = await createProject(request, admin, name);
    const archived = await request.post(`/api/project/${made.id}/archive`, {
      headers: bearer(admin),
    });
    expect(archived.status(), await archived.text()).toBe(200);

    // A member who neither created it nor is an admin: read-only, no RESTORE anywhere.
    await signIn(page, member);
    await page.goto(`/project/${made.id}`);
    await expect(page.getByRole('region', { name: 'Archived' })).toContainText(
      `Archived by ${fullName(admin)} on`,
    );
    for (const label of ['Bookmark', 'Follow', 'Edit', 'Archive project', 'Restore'])
      await expect(page.getByRole('button', { name: label, exact: true })).toHaveCount(0);
    await page.goto('/projects/archived');
    const row = page
      .getByRole('table', { name: 'Archived projects' })
      .getByRole('row')
      .filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('button')).toHaveCount(0);
  });

  test('its creator restores it from the project page, after the confirmation', async ({
    page,
    request,
    admin,
  }) => {
    const name = unique('Reopened Yard');
    const made = await createProject(request, admin, name);
    const archived = await request.post(`/api/project/${made.id}/archive`, {
      headers: bearer(admin),
    });
    expect(archived.status(), await archived.text()).toBe(200);
    await signIn(page, admin);
    await page.goto(`/project/${made.id}`);
    await expect(page.getByRole('region', { name: 'Archived' })).toBeVisible();
    await page.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore this project?' });
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Archived' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Archive project' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Bookmark' })).toBeVisible();
    expect((await readProject(request, admin, made.id)).archivedAt ?? null).toBeNull();
  });
});
