import { expect, signIn, test } from './fixtures.js';

/**
 * Phone layout (375 px): the side menu is a drawer, and tables too wide for the screen scroll
 * inside their own box. That no screen of the spec scrolls sideways at 375 px is checked by the
 * spec walk (e2e/walk.spec.ts, phone project) on each screen it loads.
 */
test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

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
