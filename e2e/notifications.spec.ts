import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Project, Upload } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
import {
  apiLogin,
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
 * Notifications (issue 15): a follower's bell counts what others do in the project without a
 * reload, a notification opens the photo at its comments, MARK ALL AS READ clears the bell; the
 * team's timeline under Events. Each test makes its own members, project and photo.
 */

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

const fullName = (person: { firstname: string; lastname: string }) =>
  `${person.firstname} ${person.lastname}`;
/** True when the page is wider than the viewport (a horizontal scroll bar on a phone). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** A member of the test's own (made by the admin), signed in through the API. */
async function createMember(
  request: APIRequestContext,
  admin: Account,
  firstname: string,
): Promise<Account> {
  // One word each, so a mention of the full name is unambiguous.
  const tag = unique('').trim().replace(/\W/g, '');
  const user = {
    firstname: `${firstname}${tag}`,
    lastname: 'Notified',
    email: `${firstname.toLowerCase()}.${tag}@example.com`,
    password: 'gravel lantern oyster fiddle',
  };
  const res = await request.post('/api/user/create', { headers: bearer(admin), data: { user } });
  expect(res.status(), await res.text()).toBe(200);
  return apiLogin(request, user.email, user.password);
}

async function apiComment(
  request: APIRequestContext,
  account: Account,
  uploadId: number,
  body: string,
): Promise<void> {
  const res = await request.post(`/api/upload/${uploadId}/comments`, {
    headers: bearer(account),
    data: { body },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function follow(request: APIRequestContext, account: Account, project: Project) {
  const res = await request.get(`/api/project/${project.id}/follow/`, { headers: bearer(account) });
  expect(res.status(), await res.text()).toBe(200);
}

/** A page of its own browser context, signed in as `account`. */
async function pageAs(browser: Browser, baseURL: string | undefined, account: Account) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await signIn(page, account);
  return { page, errors, close: () => context.close() };
}

const bell = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

test.describe('notifications', () => {
  test('a follower’s bell rises without a reload, opens the mention at the photo’s comments, and MARK ALL AS READ clears it', async ({
    browser,
    baseURL,
    request,
    admin,
  }) => {
    test.setTimeout(120_000);
    const a = await createMember(request, admin, 'Alma');
    const b = await createMember(request, admin, 'Bruno');
    const project = await createProject(request, admin, unique('Notify yard'));

    // A follows the project on its page.
    const alma = await pageAs(browser, baseURL, a);
    await alma.page.goto(`/project/${project.id}`);
    await expect(
      alma.page.getByText('Follow to be notified of new photos and changes.', { exact: true }),
    ).toBeVisible();
    await alma.page.getByRole('button', { name: 'Follow', exact: true }).click();
    await expect(alma.page.getByRole('button', { name: 'Unfollow', exact: true })).toBeVisible();
    await expect(bell(alma.page)).toHaveAccessibleName('Notifications');

    // B adds a photo to it: A's bell counts it, with no reload.
    const photo: Upload = await createUpload(request, b, project.id, unique('Slab pour'));
    await expect(bell(alma.page)).toHaveAccessibleName('Notifications, 1 unread', {
      timeout: 15_000,
    });
    await expect(bell(alma.page)).toContainText('1');

    // B mentions A in a comment under the photo, through the thread's field.
    const bruno = await pageAs(browser, baseURL, b);
    await bruno.page.goto(`/upload/${photo.id}`);
    const words = unique('Who fixes the crack at left');
    // The field completes @names (a combobox): Escape closes the suggestions before sending.
    const field = bruno.page.getByRole('combobox', { name: 'Comment' });
    await field.fill(`@${fullName(a)} ${words}?`);
    await field.press('Escape');
    await bruno.page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(bruno.page.getByText(words, { exact: false }).first()).toBeVisible();
    await expect(field).toHaveValue('');

    // A's bell rises again, still with no reload; A opens the mention.
    await expect(bell(alma.page)).toHaveAccessibleName('Notifications, 2 unread', {
      timeout: 15_000,
    });
    await bell(alma.page).click();
    await expect(alma.page).toHaveURL(/\/notifications$/);
    const list = alma.page.getByRole('list', { name: 'Notifications' });
    const mention = list.getByRole('link', {
      name: `Unread: ${fullName(b)} mentioned you: “@${fullName(a)} ${words}?”`,
      exact: false,
    });
    await expect(mention).toBeVisible();
    await expect(
      list.getByRole('link', { name: `Unread: ${fullName(b)} added a photo to ${project.name}` }),
    ).toBeVisible();
    await mention.click();
    await expect(alma.page).toHaveURL(new RegExp(`/upload/${photo.id}#comments$`));
    await expect(alma.page.getByRole('heading', { level: 1, name: photo.name })).toBeVisible();
    const comment = alma.page.getByText(`${words}?`, { exact: false }).first();
    await expect(comment).toBeVisible();
    await expect(comment).toBeInViewport();
    // Opening it read it: one left.
    await expect(bell(alma.page)).toHaveAccessibleName('Notifications, 1 unread');

    // MARK ALL AS READ: the badge goes.
    await bell(alma.page).click();
    await alma.page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(alma.page)).toHaveAccessibleName('Notifications');
    await expect(bell(alma.page).getByTestId('unread-badge')).toHaveCount(0);
    await expect(list.getByText('Unread:', { exact: true })).toHaveCount(0);
    await expect(alma.page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();

    expect([...alma.errors, ...bruno.errors].map((error) => error.message)).toEqual([]);
    await alma.close();
    await bruno.close();
  });

  test('the bell, /notifications, /events and the settings: axe, no sideways scroll, screenshots @phone', async ({
    page,
    request,
    admin,
  }) => {
    test.setTimeout(120_000);
    const a = await createMember(request, admin, 'Cora');
    const b = await createMember(request, admin, 'Dario');
    const project = await createProject(request, admin, unique('Harbour wall'));
    await follow(request, a, project);
    const photo = await createUpload(request, b, project.id, unique('Crack at pier 3'));
    await createUpload(request, b, project.id, unique('Pier 3 wide'));
    await apiComment(request, b, photo.id, `@${fullName(a)} can you check the <b>joint</b>?`);

    await signIn(page, a);
    await page.goto(`/project/${project.id}`);
    await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread', { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Mute notifications' })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'notifications-project-page');

    await bell(page).click();
    const list = page.getByRole('list', { name: 'Notifications' });
    await expect(
      list.getByRole('link', {
        name: `Unread: ${fullName(b)} mentioned you: “@${fullName(a)} can you check the <b>joint</b>?”`,
        exact: false,
      }),
    ).toBeVisible();
    await expect(
      list.getByRole('link', { name: `Unread: ${fullName(b)} added 2 photos to ${project.name}` }),
    ).toBeVisible();
    await expect(list.locator('img').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'notifications');

    // Events, filtered to the project through the chooser: kept in the address.
    await page.goto('/events');
    await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Project' }).fill(project.name);
    await page.getByRole('option', { name: project.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/events\\?project=${project.id}$`));
    const today = page.getByRole('list', { name: 'Today' });
    await expect(
      today.getByRole('link', { name: `${fullName(admin)} created ${project.name}`, exact: false }),
    ).toBeVisible();
    await expect(
      today.getByRole('link', {
        name: `${fullName(b)} commented on ${photo.name}: “@${fullName(a)} can you check the <b>joint</b>?”`,
        exact: false,
      }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'events');

    // The settings on the profile page.
    await page.goto('/profile');
    const settings = page.getByRole('region', { name: 'Notifications' });
    const uploads = settings.getByRole('switch', { name: 'New photos' });
    await expect(uploads).toBeChecked();
    await uploads.click();
    await expect(uploads).not.toBeChecked();
    await page.reload();
    await expect(settings.getByRole('switch', { name: 'New photos' })).not.toBeChecked();
    await settings.getByRole('switch', { name: 'New photos' }).click();
    await expect(settings.getByRole('switch', { name: 'New photos' })).toBeChecked();
    await settings.scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await screenshot(page, 'notification-settings');
  });
});
