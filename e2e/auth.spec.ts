import type { ErrorResponse } from '@sitelog/shared';
import { expect, sampleAdminOnLoginForm, signIn, test } from './fixtures.js';

test.describe('sign-in and sessions', () => {
  test('signs in as the sample admin (prefilled, unless behind nginx), keeps the session on reload, logs out', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await sampleAdminOnLoginForm(page, request);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Latest uploads' })).toBeVisible();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    const token = await page.evaluate(() => window.localStorage.getItem('sitelog.token'));
    expect(token).toBeTruthy();

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => window.localStorage.getItem('sitelog.token'))).toBeNull();
    const after = await request.get('/api/auth/me', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status()).toBe(401);
  });

  test('shows the server message under the form on a wrong password', async ({ page, request }) => {
    await page.goto('/login');
    await sampleAdminOnLoginForm(page, request);
    await page.getByLabel('Password', { exact: true }).fill('definitely-wrong');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('The email or password is not correct.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('sends signed-out visitors to /login', async ({ page }) => {
    await page.goto('/projects/all');
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  });

  test('answers unknown routes with a not-found page and unknown API paths with JSON', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await sampleAdminOnLoginForm(page, request);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('heading', { name: 'Bookmarks' })).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByText(/not found/i).first()).toBeVisible();
    const api = await request.get('/api/no/such/thing');
    expect(api.status()).toBe(404);
    expect(((await api.json()) as ErrorResponse).code).toBe('not_found');
  });

  test('serves pages with strict security headers', async ({ request }) => {
    const res = await request.get('/login');
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });
});

test.describe('menu and guards by role', () => {
  test('an admin sees Admin in the menu and opens the admin page', async ({ page, admin }) => {
    await signIn(page, admin);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    await page.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('a member never sees Admin and is sent to /login from /admin', async ({ page, member }) => {
    await signIn(page, member);
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'All projects' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login/);
  });
});
