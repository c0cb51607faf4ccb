import type { Browser, Page } from '@playwright/test';
import { expect, signIn, test, unique } from './fixtures.js';

/** A page in a fresh browser context (no stored session), failing the test on page errors. */
async function freshPage(browser: Browser, baseURL: string | undefined, errors: Error[]) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err));
  return page;
}

/** Signs in through the login page with what a person would type. */
async function submitLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  const emailField = page.getByLabel('Email');
  const passwordField = page.getByLabel('Password', { exact: true });
  // Both values must hold before LOGIN: under load a full run once sent the sample admin's
  // prefilled email with this password (a 401 instead of the deactivation message), so the
  // form is filled again until both fields read what was typed.
  await expect(async () => {
    await emailField.fill(email);
    await passwordField.fill(password);
    await expect(emailField).toHaveValue(email, { timeout: 1000 });
    await expect(passwordField).toHaveValue(password, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Login' }).click();
}

test.describe('people', () => {
  test('an admin creates, deactivates and activates a user, who then signs in, sees the team and opens a profile', async ({
    page,
    admin,
    browser,
    baseURL,
    request,
  }) => {
    const firstname = unique('Ines');
    const lastname = unique('Kovač');
    const name = `${firstname} ${lastname}`;
    const email = `${unique('ines').replace(' ', '.')}@example.com`;
    const password = 'scaffold copper morning drizzle';

    // Create through the form: CREATE waits for all four fields.
    await signIn(page, admin);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Users management' })).toBeVisible();
    // Create invites with a link by default; the spec's password form is one click away.
    await page.getByRole('button', { name: 'Set a password instead' }).click();
    const create = page.getByRole('button', { name: 'Create', exact: true });
    const fields = [
      page.getByLabel('First name'),
      page.getByLabel('Last name'),
      page.getByLabel('Email'),
      page.getByLabel('Password', { exact: true }),
    ];
    const values = [firstname, lastname, email, password];
    await expect(create).toBeDisabled();
    for (const [index, field] of fields.entries()) {
      await expect(create).toBeDisabled();
      await field.fill(values[index] ?? '');
    }
    await expect(create).toBeEnabled();
    // Emptying any one field disables CREATE again.
    await fields[2]?.fill('');
    await expect(create).toBeDisabled();
    await fields[2]?.fill(email);
    await expect(create).toBeEnabled();
    await create.click();

    await expect(page.getByRole('status').filter({ hasText: email })).toContainText(
      `${name} can now sign in with ${email}.`,
    );
    for (const field of fields) await expect(field).toHaveValue('');
    await expect(create).toBeDisabled();

    const users = page.getByRole('list', { name: 'Users' });
    const row = users.getByRole('listitem').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(name);
    await expect(row).toHaveAttribute('data-state', 'active');

    // Deactivate with X, confirmed: the row changes in place, and the account cannot sign in.
    await row.getByRole('button', { name: `Deactivate ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Deactivate ${name}?` })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await expect(row).toHaveAttribute('data-state', 'deactivated');
    await expect(row).toContainText('Deactivated');
    await expect(row.getByRole('button', { name: `Deactivate ${name}` })).toHaveCount(0);

    const errors: Error[] = [];
    const memberPage = await freshPage(browser, baseURL, errors);
    await submitLogin(memberPage, email, password);
    await expect(memberPage.getByRole('alert')).toHaveText(
      'This account has been deactivated. Ask an admin to reactivate it.',
    );
    await expect(memberPage).toHaveURL(/\/login$/);
    expect(
      await memberPage.evaluate(() => window.localStorage.getItem('sitelog.token')),
    ).toBeNull();

    // Activate again.
    await row.getByRole('button', { name: `Activate ${name}` }).click();
    await expect(row).toHaveAttribute('data-state', 'active');
    await expect(row).not.toContainText('Deactivated');
    await expect(row.getByRole('button', { name: `Deactivate ${name}` })).toBeVisible();

    // Now they sign in through the login page.
    await submitLogin(memberPage, email, password);
    await expect(memberPage).toHaveURL(/\/$/);
    await expect(memberPage.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    const token = await memberPage.evaluate(() => window.localStorage.getItem('sitelog.token'));
    expect(token).toBeTruthy();

    // Give them one project of their own, so their profile has something to count.
    const projectName = unique('Boiler House');
    const made = await request.post('/api/project/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { project: { name: projectName, location: 'Graz, Austria' } },
    });
    expect(made.status(), await made.text()).toBe(200);

    // The team page lists them among the active members, not the deactivated ones.
    await memberPage.getByRole('link', { name: 'Team' }).click();
    await expect(memberPage).toHaveURL(/\/teams$/);
    const members = memberPage.getByRole('table', { name: 'Members', exact: true });
    await expect(members).toBeVisible();
    const link = members.getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    const memberRow = members
      .getByRole('row')
      .filter({ has: memberPage.getByRole('link', { name, exact: true }) });
    // Name, Lastname, Projects, Uploads (the # column depends on the other members).
    const cells = memberRow.getByRole('cell');
    await expect(cells.nth(1)).toHaveText(firstname);
    await expect(cells.nth(2)).toHaveText(lastname);
    await expect(cells.nth(3)).toHaveText('1');
    await expect(cells.nth(4)).toHaveText('0');
    await expect(
      memberPage
        .getByRole('table', { name: 'Deactivated members' })
        .getByRole('link', { name, exact: true }),
    ).toHaveCount(0);

    // Open their profile from the team page.
    await link.click();
    await expect(memberPage).toHaveURL(/\/profile\/\d+$/);
    await expect(memberPage.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
    await expect(memberPage).toHaveTitle(new RegExp(name));
    await expect(memberPage.getByRole('heading', { name: 'Projects (1)' })).toBeVisible();
    await expect(memberPage.getByRole('heading', { name: 'Latest uploads (0)' })).toBeVisible();
    await expect(
      memberPage
        .getByRole('region', { name: 'Projects (1)' })
        .getByRole('link', { name: new RegExp(projectName) }),
    ).toBeVisible();

    await memberPage.context().close();
    expect(errors, 'uncaught errors in the member page').toEqual([]);
  });
});
