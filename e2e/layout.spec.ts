import type { Page } from '@playwright/test';
import { expect, signIn, test, type Account } from './fixtures.js';
import {
  loadWalkData,
  openRoute,
  signedInRoutes,
  signedOutRoutes,
  type SpecRoute,
  type WalkData,
} from './spec-routes.js';

/**
 * Phone layout (375 px): no screen of the spec scrolls sideways, the side menu is a drawer, and
 * tables too wide for the screen scroll inside their own box. Runs once, at the phone size.
 */
test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

/** How far the page is wider than the viewport, and the widest elements sticking out. */
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

for (const role of ['admin', 'member'] as const) {
  test(`no screen scrolls sideways at 375 px (${role})`, async ({
    page,
    admin,
    member,
    request,
  }) => {
    test.setTimeout(10 * 60_000);
    const data: WalkData = await loadWalkData(request, admin, member);
    const account: Account = role === 'admin' ? admin : member;
    const checked = (route: SpecRoute) =>
      role === 'admin' || (route.differsByRole === true && !route.adminOnly);
    const failures: string[] = [];

    const check = async (route: SpecRoute) => {
      await test
        .step(route.name, async () => {
          await openRoute(page, route, data, account);
          const { overflow, culprits } = await sidewaysOverflow(page);
          expect(
            overflow,
            `wider than the screen by ${overflow}px: ${culprits.join(', ')}`,
          ).toBeLessThanOrEqual(0);
        })
        .catch((error: unknown) => {
          failures.push(`${route.name}: ${error instanceof Error ? error.message : String(error)}`);
        });
    };

    if (role === 'admin') for (const route of signedOutRoutes) await check(route);
    await signIn(page, account);
    for (const route of signedInRoutes.filter(checked)) await check(route);
    expect(failures, failures.join('\n\n')).toEqual([]);
  });
}

test('the side menu is a drawer, All projects is a list of cards and tables scroll inside their box at 375 px', async ({
  page,
  admin,
}) => {
  await signIn(page, admin);
  await page.goto('/projects/all');
  // On a phone All projects is a list of cards (e2e/long-content.spec.ts tests its sort and
  // filter), not a table scrolling sideways.
  await expect(page.getByRole('list', { name: 'All projects' })).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // No menu on screen until it is asked for; then a modal drawer that closes with Escape.
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'All projects' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();

  // A table keeps its columns and scrolls inside its card, not the page.
  await page.goto('/teams');
  const table = page.getByRole('table', { name: 'Members', exact: true });
  await expect(table).toBeVisible();
  const box = await table.evaluate((element) => {
    let scroller = element.parentElement;
    while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) {
      scroller = scroller.parentElement;
    }
    return scroller
      ? {
          scrollWidth: scroller.scrollWidth,
          clientWidth: scroller.clientWidth,
          right: scroller.getBoundingClientRect().right,
        }
      : null;
  });
  expect(box, 'the table has no box of its own that scrolls').not.toBeNull();
  expect(box?.right ?? Infinity).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test('on a first visit, a menu or viewer whose code cannot be fetched leaves the page standing, and the menu comes once back online', async ({
  browser,
  admin,
}) => {
  // No service worker yet (a first visit): the parts a tap opens are fetched on that tap.
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    baseURL: test.info().project.use.baseURL,
    serviceWorkers: 'block',
  });
  const refused = { viewer: 0, menu: 0 };
  let refusing = true;
  await context.route(/\/assets\/(phone-menu|photo-viewer-screen)-[^/]*\.js$/, async (route) => {
    if (!refusing) return route.continue();
    refused[route.request().url().includes('phone-menu') ? 'menu' : 'viewer'] += 1;
    await route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  await signIn(page, admin);
  const standing = async () => {
    await expect(page.getByRole('heading', { name: 'Latest uploads' })).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
  };

  // A photo link opens the viewer, whose code does not come.
  await page.goto('/?photo=1');
  await expect.poll(() => refused.viewer).toBeGreaterThan(0);
  await standing();

  // The menu's code does not come either: the tap does nothing, and the page stays.
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect.poll(() => refused.menu).toBeGreaterThan(0);
  await expect(nav).toBeHidden();
  await standing();

  // Back online (the signal lost and found again), the menu that was asked for is fetched again
  // and opens.
  refusing = false;
  await context.setOffline(true);
  const banner = page.getByText('You are offline.', { exact: false });
  await expect(banner).toBeVisible();
  await context.setOffline(false);
  await expect(banner).toBeHidden();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'All projects' })).toBeVisible();
  await context.close();
});
