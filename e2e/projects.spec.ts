import type { APIRequestContext, Page } from '@playwright/test';
import type { Project } from '@sitelog/shared';
import { bearer, createProject, expect, signIn, test, unique, type Account } from './fixtures.js';

async function readProject(
  request: APIRequestContext,
  account: Account,
  id: number,
): Promise<Project> {
  const res = await request.get(`/api/project/id/${id}`, { headers: bearer(account) });
  expect(res.status()).toBe(200);
  return (await res.json()) as Project;
}

/** True when the page is wider than the viewport (a horizontal scroll bar on a phone). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe('projects', () => {
  test('creates a project with the place autocomplete, finds it in My projects and All projects, bookmarks, follows and edits it', async ({
    page,
    admin,
    request,
  }) => {
    await signIn(page, admin);
    const name = unique('Tram Depot');

    // Create through the form, picking the place from the suggestions.
    await page.goto('/projects/new');
    await expect(page).toHaveTitle(/New project/);
    const create = page.getByRole('button', { name: 'Create' });
    await expect(create).toBeDisabled();
    await page.getByLabel('Name').fill(name);
    await expect(create).toBeDisabled();
    await page.getByLabel('Location').pressSequentially('munc', { delay: 40 });
    const munich = page.getByRole('option', { name: /^Munich/ });
    await expect(munich.first()).toBeVisible();
    await munich.first().click();
    await expect(page.getByLabel('Location')).toHaveValue(/^Munich, .*Germany$/);
    const location = await page.getByLabel('Location').inputValue();
    await page.getByLabel('Description').fill('Depot for the new tram line, phase 1.');
    await expect(create).toBeEnabled();
    await create.click();

    await expect(page).toHaveURL(/\/project\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText(location, { exact: true })).toBeVisible();
    await expect(
      page.getByRole('link', { name: `${admin.firstname} ${admin.lastname}`, exact: true }),
    ).toHaveAttribute('href', `/profile/${admin.id}`);
    const storedBody = await readProject(request, admin, id);
    expect(storedBody.latitude).toBeCloseTo(48.14, 1);
    expect(storedBody.longitude).toBeCloseTo(11.58, 1);

    // My projects.
    await page.getByRole('link', { name: 'My projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(
      page.getByRole('list', { name: 'My projects' }).getByRole('link', { name: new RegExp(name) }),
    ).toBeVisible();

    // All projects: find it in the table and open it from its row.
    await page.getByRole('link', { name: 'All projects' }).click();
    await expect(page).toHaveURL(/\/projects\/all$/);
    const table = page.getByRole('table', { name: 'All projects' });
    await expect(table).toBeVisible();
    // Typed at full speed: no keystroke may be lost.
    await page.getByLabel('Filter projects').pressSequentially(name);
    await expect(page.getByLabel('Filter projects')).toHaveValue(name);
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(row).toContainText(`${admin.firstname} ${admin.lastname}`);
    await expect(page).toHaveURL(/[?&]q=/);
    await row.getByRole('cell').nth(2).click();
    await expect(page).toHaveURL(new RegExp(`/project/${id}$`));
    // Back returns to the filtered table; Enter on the focused row opens the project again.
    await page.goBack();
    await expect(page.getByLabel('Filter projects')).toHaveValue(name);
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/project/${id}$`));

    // Bookmark it and see it on Home.
    await page.getByRole('button', { name: 'Bookmark' }).click();
    await expect(page.getByRole('button', { name: 'Unbookmark' })).toBeVisible();
    expect((await readProject(request, admin, id)).isFavorited).toBe(true);
    await page.goto('/');
    await expect(
      page
        .getByRole('list', { name: 'Bookmarked projects' })
        .getByRole('link', { name: new RegExp(name) }),
    ).toBeVisible();
    await page
      .getByRole('list', { name: 'Bookmarked projects' })
      .getByRole('link', { name: new RegExp(name) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/project/${id}$`));

    // Follow, then unfollow.
    await page.getByRole('button', { name: 'Follow' }).click();
    await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();
    expect((await readProject(request, admin, id)).isFollowed).toBe(true);
    await page.getByRole('button', { name: 'Unfollow' }).click();
    await expect(page.getByRole('button', { name: 'Follow' })).toBeVisible();
    expect((await readProject(request, admin, id)).isFollowed).toBe(false);

    // Edit as its creator.
    const renamed = `${name} (phase 2)`;
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit project' });
    await expect(dialog.getByLabel('Name')).toHaveValue(name);
    await dialog.getByLabel('Name').fill(renamed);
    await dialog.getByLabel('Description').fill('Phase 2: the second hall.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(page.getByText('Phase 2: the second hall.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(renamed.replace(/[()]/g, '\\$&')));
  });

  test('hides EDIT from a member who did not create the project', async ({
    page,
    admin,
    member,
    request,
  }) => {
    const project = await createProject(request, admin, unique('Harbour Office'));
    await signIn(page, member);
    await page.goto(`/project/${project.id}`);
    await expect(page.getByRole('heading', { level: 1, name: project.name })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Bookmark' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Follow' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    const patch = await request.patch(`/api/project/update/${project.id}`, {
      headers: bearer(member),
      data: { project: { name: 'Taken over', location: 'Vienna, Austria' } },
    });
    expect(patch.status()).toBe(403);
  });

  test('answers an unknown or malformed project address with a not-found message', async ({
    page,
    member,
  }) => {
    await signIn(page, member);
    await page.goto('/project/987654321');
    await expect(page.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible();
    await page.goto('/project/not-a-number');
    await expect(page.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible();
  });

  test('picks the project to upload to from the chooser', async ({ page, admin, request }) => {
    const project = await createProject(request, admin, unique('Warehouse Roof'));
    await signIn(page, admin);
    await page.goto('/uploader/choose');
    await page.getByLabel('Search projects').fill(project.name);
    await page
      .getByRole('list', { name: 'Other projects' })
      .getByRole('link', { name: new RegExp(project.name) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/uploader/${project.id}/create$`));
  });

  test('project screens fit a phone without sideways scrolling @phone', async ({
    page,
    admin,
    request,
  }) => {
    const project = await createProject(
      request,
      admin,
      unique('A project with a rather long name for a small screen'),
    );
    await signIn(page, admin);
    for (const path of [
      '/projects/all',
      '/projects',
      '/projects/new',
      `/project/${project.id}`,
      '/uploader/choose',
      '/',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Loaded: no spinner or skeleton left (other statuses, such as the chooser's "Showing 50
      // of 54 projects" once other specs made enough, are content).
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: /loading/i })
          .or(page.getByRole('status', { name: /loading/i })),
      ).toHaveCount(0);
      expect(await scrollsSideways(page), `${path} scrolls sideways`).toBe(false);
    }
    // All projects: a card list on a phone, else the table (scrolling inside its own box); a
    // tap on this spec's project opens it.
    await page.goto('/projects/all');
    const narrow = (page.viewportSize()?.width ?? 0) < 600;
    const list = narrow
      ? page.getByRole('list', { name: 'All projects' }).getByRole('listitem')
      : page.getByRole('table', { name: 'All projects' }).getByRole('row');
    await list.filter({ hasText: project.name }).first().click();
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}$`));
  });
});
