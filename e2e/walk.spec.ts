import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './axe.js';
import { artifactsDir, expect, signIn, test, type Account } from './fixtures.js';
import {
  expectSentToLogin,
  loadWalkData,
  openRoute,
  signedInRoutes,
  signedOutRoutes,
  type SpecRoute,
  type WalkData,
} from './spec-routes.js';

/**
 * The spec walk: every route of spec §2, as an admin and as a member, at 1280 px (desktop
 * project) and 375 px (phone project, via the @phone tag). Each route is loaded once, and
 * everything the suite asks of a whole screen is checked on that one load:
 * - its key content, tab title and image alt texts, no error page and no uncaught error;
 * - no serious or critical axe violation (the member's view where it differs from the admin's);
 * - at 375 px, no sideways scrolling (the same screens);
 * - a full-page screenshot to e2e/.artifacts/screenshots/<width>/<route>.png (the member's view
 *   of role-dependent screens to <width>/member/<route>.png) for a reviewer to look at. The
 *   cluster config's run (through nginx) saves them under e2e/.artifacts/cluster/screenshots/.
 * The walk, the axe scan (e2e/a11y.spec.ts) and the phone layout check (e2e/layout.spec.ts) were
 * three walks, each loading every screen again: with one load each, those files and the dark-mode
 * spec took 494 s here instead of 622 s (2026-11-28, nothing else running).
 */

const screenshotsDir = path.join(artifactsDir, 'screenshots');

/** Images without an alt attribute (alt="" marks a decorative one and is fine). */
const imagesWithoutAlt = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => !img.hasAttribute('alt'))
      .map((img) => img.src),
  );

/**
 * How far the page is wider than the viewport, and the widest elements sticking out (a box that
 * scrolls sideways itself, such as a wide table's, may be wider).
 */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const width = window.innerWidth;
    const overflow =
      Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
    const culprits: string[] = [];
    if (overflow > 0) {
      for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
        const box = element.getBoundingClientRect();
        if (box.right <= width + 0.5 || box.width === 0) continue;
        // Inside a box that scrolls sideways itself (a wide table): allowed.
        let parent = element.parentElement;
        let scrolls = false;
        while (parent && !scrolls) {
          const style = getComputedStyle(parent);
          scrolls = ['auto', 'scroll'].includes(style.overflowX) && parent !== document.body;
          parent = parent.parentElement;
        }
        if (scrolls) continue;
        const label = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${Array.from(element.classList).slice(0, 2).join('.')}`;
        culprits.push(`${label} right=${Math.round(box.right)}`);
        if (culprits.length >= 5) break;
      }
    }
    return { overflow, culprits };
  });

async function screenshot(page: Page, role: 'admin' | 'member', route: SpecRoute) {
  if (role === 'member' && !route.differsByRole) return;
  const width = page.viewportSize()?.width ?? 0;
  const dir = path.join(screenshotsDir, String(width), role === 'member' ? 'member' : '');
  mkdirSync(dir, { recursive: true });
  // A full-page picture shows what is below the fold too: load the lazy photos first.
  await page.evaluate(() => {
    for (const img of Array.from(document.images)) img.loading = 'eager';
  });
  await page
    .waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  await page.screenshot({ path: path.join(dir, `${route.name}.png`), fullPage: true });
}

for (const role of ['admin', 'member'] as const) {
  test(`walks every route of the spec as ${role}: content, axe, no sideways scroll @phone`, async ({
    page,
    admin,
    member,
    request,
    pageErrors,
  }) => {
    test.setTimeout(10 * 60_000);
    const data: WalkData = await loadWalkData(request, admin, member);
    const account: Account = role === 'admin' ? admin : member;
    const phone = (page.viewportSize()?.width ?? Infinity) <= 375;
    const failures: string[] = [];

    /*
     * Whether the screen is scanned (axe, and sideways scrolling on a phone) in this walk: every
     * screen in the admin's; in the member's only those that differ by role (the signed-out
     * screens and the rest look the same, and an admin-only route sends a member to the login
     * page, which the admin's walk scans).
     */
    const scanned = (route: SpecRoute, signedIn: boolean) =>
      role === 'admin' || (signedIn && route.differsByRole === true && !route.adminOnly);

    const visit = async (route: SpecRoute, signedIn: boolean) => {
      const errorsBefore = pageErrors.length;
      await test
        .step(route.name, async () => {
          if (route.adminOnly && !account.isAdmin) {
            await page.goto(route.path(data, account));
            await expectSentToLogin(page);
          } else {
            await openRoute(page, route, data, account);
          }
          expect(await imagesWithoutAlt(page), 'images without alt text').toEqual([]);
          await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
          if (scanned(route, signedIn)) {
            const violations = await seriousViolations(page);
            expect(violations, `axe: ${violations.join('\n')}`).toEqual([]);
            if (phone) {
              const { overflow, culprits } = await sidewaysOverflow(page);
              expect(
                overflow,
                `wider than the screen by ${overflow}px: ${culprits.join(', ')}`,
              ).toBeLessThanOrEqual(0);
            }
          }
          await screenshot(page, role, route);
          expect(
            pageErrors.slice(errorsBefore).map((error) => error.message),
            'uncaught errors',
          ).toEqual([]);
        })
        .catch((error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          failures.push(`${route.name}: ${message.split('\n').slice(0, 12).join('\n')}`);
        });
    };

    for (const route of signedOutRoutes) await visit(route, false);
    await signIn(page, account);
    for (const route of signedInRoutes) await visit(route, true);

    // Every route is walked even when one fails, so a run lists all broken screens at once.
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
}

const menu: [label: string, path: string, heading: string][] = [
  ['New project', '/projects/new', 'New project'],
  ['My projects', '/projects', 'My projects'],
  ['All projects', '/projects/all', 'All projects'],
  ['Reports', '/reports', 'Reports'],
  ['Photos', '/uploads/latest', 'Latest uploads'],
  ['Team', '/teams', 'Team'],
  ['Archive', '/projects/archived', 'Archived projects'],
  ['My profile', '/profile', 'My profile'],
  ['Events', '/events', 'Events'],
  ['Search', '/search', 'Search'],
  ['Admin', '/admin', 'Users management'],
];

/** The side menu: permanent on desktop, a drawer opened from the top bar on phones. */
async function openMenu(page: Page): Promise<Locator> {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  if (await toggle.isVisible()) await toggle.click();
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav).toBeVisible();
  return nav;
}

test('the side menu and the top bar reach every screen @phone', async ({ page, admin }) => {
  test.setTimeout(3 * 60_000);
  await signIn(page, admin);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'Bookmarks' })).toBeVisible();

  let previous: string | null = null;
  for (const [label, to, heading] of menu) {
    const nav = await openMenu(page);
    if (previous) {
      // The page chosen last is the highlighted one.
      await expect(nav.getByRole('link', { name: previous })).toHaveAttribute(
        'aria-current',
        'page',
      );
    }
    await nav.getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`${to.replace(/\//g, '\\/')}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(/ · Sitelog$/);
    // On phones the drawer closes after choosing.
    if (await page.getByRole('button', { name: 'Open menu' }).isVisible()) {
      await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
    }
    previous = label;
  }

  const banner = page.getByRole('banner');
  await banner.getByRole('link', { name: 'Notifications' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await banner.getByRole('link', { name: 'Sitelog' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle('Home · Sitelog');
  await banner.getByRole('link', { name: 'Upload' }).click();
  await expect(page).toHaveURL(/\/uploader\/choose$/);

  // Search: Enter, or the search button, opens /search with the query and clears the box.
  const box = banner.getByRole('combobox', { name: 'Search' });
  await box.fill('tower crane');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=tower(\+|%20)crane$/);
  await expect(page.getByText('Results for “tower crane”', { exact: true })).toBeVisible();
  await expect(box).toHaveValue('');
  await box.fill('scaffold');
  await banner.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search\?q=scaffold$/);
  await expect(page.getByText('Results for “scaffold”', { exact: true })).toBeVisible();
  await expect(page).toHaveTitle('Search: scaffold · Sitelog');
  await expect(box).toHaveValue('');
});

test('every screen shows a loading state, then the server message and a retry, when its data fails', async ({
  page,
  admin,
  member,
  request,
}) => {
  test.setTimeout(10 * 60_000);
  const data = await loadWalkData(request, admin, member);
  const message = 'The walk made the server fail on purpose.';
  // Every data call fails with a server error (the session calls still work). The client retries
  // a failed load twice, with pauses, so the loading state is on screen meanwhile.
  // The session and the public client settings (/api/config, formerly part of /api/auth/hints)
  // keep working; every other GET under /api is the screen's data.
  // The top bar's unread count is the shell's, polled on every screen: not a screen's data.
  const isDataCall = (url: URL, method: string) =>
    method === 'GET' &&
    url.pathname.startsWith('/api/') &&
    !url.pathname.startsWith('/api/auth/') &&
    url.pathname !== '/api/config' &&
    url.pathname !== '/api/notifications/unread';
  const dataCalls: string[] = [];
  await page.route('**/api/**', async (route) => {
    const call = route.request();
    const url = new URL(call.url());
    if (!isDataCall(url, call.method())) return route.fallback();
    dataCalls.push(url.pathname);
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message, code: 'internal', requestId: 'walk' }),
    });
  });
  await signIn(page, admin);
  // The page's clock runs, but the test moves it on past the retries' pauses (1 s, then 2 s):
  // they were most of this test's time.
  await page.clock.install();
  const failures: string[] = [];
  // What each screen should show is declared by its route (loadsData), never guessed from
  // whether a call happened to arrive within some time.
  for (const route of signedInRoutes) {
    await test
      .step(route.name, async () => {
        dataCalls.length = 0;
        await page.goto(route.path(data, admin));
        if (route.loadsData === false) {
          // Nothing to load: the page itself, never an error page, and no data call once the
          // network has settled.
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await page.waitForLoadState('networkidle');
          expect(dataCalls, 'data calls of a screen declared to load none').toEqual([]);
        } else {
          await expect(
            page.getByRole('status').or(page.getByRole('progressbar')).first(),
            'a loading state while the data is on its way',
          ).toBeVisible();
          // Failed calls are retried twice (with a pause) before the error shows: the clock
          // jumps a second at a time until it does.
          const alert = page.getByRole('alert').filter({ hasText: message }).first();
          await expect(async () => {
            await page.clock.fastForward(1_000);
            await expect(alert).toBeVisible({ timeout: 250 });
          }).toPass({ timeout: 30_000 });
          await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
          expect(dataCalls.length, 'data calls made').toBeGreaterThan(0);
        }
        await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
      })
      .catch((error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        failures.push(`${route.name}: ${text.split('\n').slice(0, 4).join('\n')}`);
      });
  }
  expect(failures, failures.join('\n\n')).toEqual([]);
});
