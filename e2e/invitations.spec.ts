// Admin care (issue 15): an admin invites a member with a one-time link, the member opens it in
// their own browser, chooses a password and lands signed in; the link then says it was used.
// Deactivating a member asks first, naming them and what happens.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import type { InvitationLink, User } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
import { apiLogin, bearer, expect, signIn, test, unique, type Account } from './fixtures.js';

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

/** True when the page is wider than the viewport (a horizontal scroll bar on a phone). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** A page in a new browser context: nobody signed in, as on the invited member's phone. */
async function freshPage(browser: Browser, baseURL: string | undefined, errors: Error[]) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err));
  return page;
}

/** A new person's names and email, unique to the test (`slug` is the email's ASCII start). */
function newPerson(first: string, slug = first.toLowerCase()) {
  const firstname = unique(first);
  const lastname = unique('Khan');
  return {
    firstname,
    lastname,
    name: `${firstname} ${lastname}`,
    email: `${unique(slug).replace(' ', '.')}@example.com`,
  };
}

/** Invites someone through the API, as the admin. */
async function inviteByApi(
  request: Parameters<typeof apiLogin>[0],
  admin: Account,
  person: ReturnType<typeof newPerson>,
): Promise<InvitationLink> {
  const res = await request.post('/api/user/invite', {
    headers: bearer(admin),
    data: { user: { firstname: person.firstname, lastname: person.lastname, email: person.email } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as InvitationLink;
}

const PASSWORD = 'copper lattice over tidewater 4417';

test.describe('invitations', () => {
  test('an admin invites a member, who sets a password through the link and lands signed in', async ({
    page,
    admin,
    browser,
    baseURL,
  }) => {
    const person = newPerson('Aisha');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, admin);
    await page.goto('/admin');

    // Inviting is the default way to add a member: no password to type.
    const form = page.getByRole('form', { name: 'Invite member' });
    await expect(form).toBeVisible();
    await expect(form.getByLabel(/password/i)).toHaveCount(0);
    await form.getByLabel('First name').fill(person.firstname);
    await form.getByLabel('Last name').fill(person.lastname);
    await form.getByLabel('Email').fill(person.email);
    await form.getByRole('button', { name: 'Invite member' }).click();

    const dialog = page.getByRole('dialog', { name: `Invitation link for ${person.name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(person.email);
    await expect(dialog).toContainText(/It works once, until /);
    const url = await dialog.getByLabel('Invitation link').inputValue();
    expect(url).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{43}$`));
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'invite-dialog');
    // A click beside the dialog does not lose the link; DONE closes it, and the focus is back
    // on First name for the next invitation.
    await page.mouse.click(5, 5);
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(form.getByLabel('First name')).toBeFocused();

    const row = page
      .getByRole('list', { name: 'Users' })
      .getByRole('listitem')
      .filter({ hasText: person.email });
    await expect(row).toContainText('Invitation pending');
    await expect(
      row.getByRole('button', { name: `New invitation link for ${person.name}` }),
    ).toBeVisible();

    // The member, in their own browser: who the link is for, then their own password.
    const errors: Error[] = [];
    const memberPage = await freshPage(browser, baseURL, errors);
    await memberPage.goto(url);
    await expect(
      memberPage.getByRole('heading', { level: 1, name: `Welcome, ${person.firstname}` }),
    ).toBeVisible();
    await expect(memberPage.getByText(person.email)).toBeVisible();
    await expect(memberPage).toHaveTitle('Invitation · Sitelog');
    expect(await seriousViolations(memberPage)).toEqual([]);
    await memberPage.getByLabel('New password').fill(PASSWORD);
    await expect(memberPage.getByText('Strength: strong')).toBeVisible();
    await memberPage.getByLabel('Confirm password').fill(PASSWORD);
    await screenshot(memberPage, 'invite-page');
    await memberPage.getByRole('button', { name: 'Set password and sign in' }).click();

    await expect(memberPage).toHaveURL(/\/$/);
    await expect(memberPage.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    const stored = await memberPage.evaluate(() => window.localStorage.getItem('sitelog.user'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ email: person.email });
    await memberPage.context().close();

    // The same link a second time: used, said plainly, no form.
    const again = await freshPage(browser, baseURL, errors);
    await again.goto(url);
    await expect(
      again.getByRole('heading', { level: 1, name: 'This link cannot be used' }),
    ).toBeVisible();
    await expect(again.getByText(/has already been used/)).toBeVisible();
    await expect(again.getByLabel('New password')).toHaveCount(0);
    await expect(again.getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations(again)).toEqual([]);
    await screenshot(again, 'invite-page-used');
    await again.context().close();
    expect(errors, 'uncaught errors in the member pages').toEqual([]);

    // The admin's list no longer marks them, and they sign in with the password they chose.
    await page.reload();
    await expect(row).toContainText(person.name);
    await expect(row).not.toContainText('Invitation pending');
    await apiLogin(page.request, person.email, PASSWORD);
  });

  test('the invite dialog and the invite page fit the screen and pass axe @phone', async ({
    page,
    admin,
    request,
    browser,
    baseURL,
  }) => {
    const person = newPerson('Zoë', 'zoe');
    await signIn(page, admin);
    await page.goto('/admin');
    const form = page.getByRole('form', { name: 'Invite member' });
    await form.getByLabel('First name').fill(person.firstname);
    await form.getByLabel('Last name').fill(person.lastname);
    await form.getByLabel('Email').fill(person.email);
    await form.getByRole('button', { name: 'Invite member' }).click();
    const dialog = page.getByRole('dialog', { name: `Invitation link for ${person.name}` });
    await expect(dialog.getByRole('button', { name: 'Copy link' })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'invite-dialog-layout');
    const url = await dialog.getByLabel('Invitation link').inputValue();

    const errors: Error[] = [];
    const memberPage = await freshPage(browser, baseURL, errors);
    await memberPage.setViewportSize(page.viewportSize() ?? { width: 375, height: 812 });
    await memberPage.goto(url);
    await expect(memberPage.getByLabel('New password')).toBeVisible();
    expect(await scrollsSideways(memberPage)).toBe(false);
    await screenshot(memberPage, 'invite-page-layout');
    await memberPage.context().close();

    // A link whose account was deactivated is refused, and says why.
    const other = await inviteByApi(request, admin, newPerson('Omar'));
    const off = await request.delete(`/api/user/${other.user.id}`, { headers: bearer(admin) });
    expect(off.status()).toBe(200);
    const refused = await freshPage(browser, baseURL, errors);
    await refused.setViewportSize(page.viewportSize() ?? { width: 375, height: 812 });
    await refused.goto(other.path);
    await expect(refused.getByText(/the account has been deactivated/)).toBeVisible();
    await expect(refused.getByLabel('New password')).toHaveCount(0);
    expect(await scrollsSideways(refused)).toBe(false);
    expect(await seriousViolations(refused)).toEqual([]);
    await refused.context().close();
    expect(errors).toEqual([]);
  });

  test('deactivating a member asks first, naming them, and ends their sessions', async ({
    page,
    admin,
    request,
  }) => {
    const person = newPerson('Dora');
    const made = await request.post('/api/user/create', {
      headers: bearer(admin),
      data: {
        user: {
          firstname: person.firstname,
          lastname: person.lastname,
          email: person.email,
          password: PASSWORD,
        },
      },
    });
    expect(made.status(), await made.text()).toBe(200);
    const created = (await made.json()) as User;
    const session = await apiLogin(request, person.email, PASSWORD);

    await signIn(page, admin);
    await page.goto('/admin');
    const row = page
      .getByRole('list', { name: 'Users' })
      .getByRole('listitem')
      .filter({ hasText: person.email });
    const x = row.getByRole('button', { name: `Deactivate ${person.name}` });

    // By keyboard: Enter opens it, Escape cancels, nothing is sent.
    await x.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Deactivate ${person.name}?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'They are signed out everywhere and can no longer sign in. Their projects, photos and comments stay.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(x).toBeFocused();
    await expect(row).toHaveAttribute('data-state', 'active');

    // Confirmed: the row changes in place and the member's session is over.
    await x.click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute('data-state', 'deactivated');
    await expect(row.getByRole('button', { name: `Activate ${person.name}` })).toBeFocused();
    const me = await request.get('/api/auth/me', { headers: bearer(session) });
    expect(me.status()).toBe(401);
    expect(created.isActive).toBe(true);
  });
});
