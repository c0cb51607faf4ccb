import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.js';
import { loadWalkData, type WalkData } from './spec-routes.js';
import { seriousViolations } from './axe.js';

/**
 * axe-core on the states of a screen that only exist after a click: the phone's menu drawer and
 * the photo viewer with its info. Every screen as it loads is scanned by the spec walk
 * (e2e/walk.spec.ts), at 1280 and 375 px, as an admin and as a member. Then keyboard-only
 * journeys.
 */

test('the menu drawer and the photo viewer with its info pass axe @phone', async ({
  page,
  admin,
  member,
  request,
}) => {
  const data: WalkData = await loadWalkData(request, admin, member);
  const failures: string[] = [];
  const scan = async (name: string, open: () => Promise<void>) => {
    await test
      .step(name, async () => {
        await open();
        const violations = await seriousViolations(page);
        expect(violations, violations.join('\n')).toEqual([]);
      })
      .catch((error: unknown) => {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      });
  };

  await signIn(page, admin);
  await scan('menu drawer (phones)', async () => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    if (await toggle.isVisible()) {
      await toggle.click();
      await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    }
  });
  await scan('photo in the full-screen viewer, with its info', async () => {
    await page.goto(`/upload/${data.upload.id}`);
    await page.getByRole('button', { name: `View ${data.upload.name} full screen` }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    await expect(viewer).toBeVisible();
    const info = viewer.getByRole('complementary', { name: 'Photo info' });
    if (!(await info.isVisible()))
      await viewer.getByRole('button', { name: 'Show photo info' }).click();
    await expect(info.getByRole('heading', { name: data.upload.name })).toBeVisible();
    // Scan the settled viewer: mid fade-in, axe blends the page behind a half-clear backdrop
    // and reports a contrast that no user sees.
    await expect(page.locator('.yarl__portal')).toHaveCSS('opacity', '1');
  });
  expect(failures, failures.join('\n\n')).toEqual([]);
});

/** Presses Tab until `target` has the focus (at most `max` times). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`could not reach ${target.toString()} with Tab`);
}

test('works by keyboard: menu, projects table, project, photo, search', async ({
  page,
  admin,
  member,
  request,
}) => {
  test.setTimeout(3 * 60_000);
  const data = await loadWalkData(request, admin, member);
  await signIn(page, admin);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'Bookmarks' })).toBeVisible();

  // The side menu.
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'All projects' }),
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/projects\/all$/);

  // A row of the all-projects table opens its project with Enter.
  const row = page
    .getByRole('table', { name: 'All projects' })
    .getByRole('row')
    .filter({ hasText: data.project.name });
  await tabTo(page, row, 80);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/project/${data.project.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: data.project.name })).toBeVisible();

  // A photo tile opens the full-screen viewer; Escape closes it and gives focus back to the tile.
  const uploads = page.getByRole('region', { name: 'Uploads' });
  const tile = uploads.locator(`[data-upload-tile="${data.upload.id}"]`);
  await tabTo(page, tile);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(
    new RegExp(`/project/${data.project.id}\\?photo=${data.upload.id}$`),
  );
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await expect(viewer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(tile).toBeFocused();

  // The photo page: its image opens the same viewer, and focus comes back to it.
  await page.goto(`/upload/${data.upload.id}`);
  const enlarge = page.getByRole('button', { name: `View ${data.upload.name} full screen` });
  await tabTo(page, enlarge);
  await page.keyboard.press('Enter');
  await expect(viewer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(enlarge).toBeFocused();

  // The top bar search box.
  await tabTo(page, page.getByRole('banner').getByRole('combobox', { name: 'Search' }));
  await page.keyboard.type('formwork');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=formwork$/);
  // Exact: "No results for …" (when no photo is named so) contains the same words.
  await expect(page.getByText('Results for “formwork”', { exact: true })).toBeVisible();
});

test('BOOKMARK and FOLLOW toggle by keyboard and keep the focus', async ({
  page,
  admin,
  member,
  request,
}) => {
  const data = await loadWalkData(request, admin, member);
  await signIn(page, admin);
  await page.goto(`/project/${data.project.id}`);
  await expect(page.getByRole('heading', { level: 1, name: data.project.name })).toBeVisible();

  // The project is this test's own, so its marks need no restoring for any other test.
  await toggleBothByKeyboard(page);
});

async function toggleBothByKeyboard(page: Page) {
  for (const [on, off] of [
    ['Bookmark', 'Unbookmark'],
    ['Follow', 'Unfollow'],
  ] as const) {
    const button = page.getByRole('button', { name: new RegExp(`^(${on}|${off})$`, 'i') });
    const before = (await button.textContent())?.trim() ?? '';
    const after = before.toLowerCase() === on.toLowerCase() ? off : on;
    await tabTo(page, button);
    await page.keyboard.press('Enter');
    await expect(button).toHaveText(new RegExp(`^${after}$`, 'i'));
    // A keyboard user goes on from the button just pressed, not from the top of the page.
    await expect(button).toBeFocused();
    // Pressed again, it toggles back: it takes the press once answered (aria-disabled only while
    // the call runs, not while the project is read again behind it).
    await expect(button).toHaveAttribute('aria-disabled', 'false');
    await page.keyboard.press('Enter');
    await expect(button).toHaveText(new RegExp(`^${before}$`, 'i'));
  }
}
