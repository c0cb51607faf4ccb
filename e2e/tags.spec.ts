import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Project, Upload } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
import { bearer, createProject, expect, signIn, test, unique, type Account } from './fixtures.js';
import { makePhoto } from './photos.js';

/**
 * Tags (issue 15): the creator tags a photo on its edit page (a suggestion picked from the
 * workspace's tags, another typed with a comma), the photo page shows them as chips, a chip opens
 * the project's uploads filtered by it (in the address, "No photos tagged …" and CLEAR FILTER),
 * search finds the photo by its tag, and the viewer's info panel edits tags without the keys
 * typed turning the photo. Every test tags with a word of its own, so no other data matches.
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

/** A made-up word no other data holds: letters only, so it is one search word. */
const uniqueWord = () =>
  `tq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.replace(/[0-9]/g, (d) =>
    String.fromCharCode(97 + Number(d)),
  );

async function uploadTagged(
  request: APIRequestContext,
  account: Account,
  projectId: number,
  name: string,
  tags: string[],
  rgb: [number, number, number],
): Promise<Upload> {
  const res = await request.post('/api/upload/autoupload', {
    headers: bearer(account),
    multipart: {
      file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await makePhoto({ rgb }) },
      createUploadDto: JSON.stringify({ name, description: '', projectId, tags }),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Upload;
}

interface TagData {
  word: string;
  project: Project;
  crack: Upload;
  spalling: Upload;
  overview: Upload;
}

async function makeTagData(request: APIRequestContext, admin: Account): Promise<TagData> {
  const word = uniqueWord();
  // Not named with the word: a photo's search document holds its project's name.
  const project = await createProject(request, admin, unique('Tagged deck'), 'Basel, Switzerland');
  const crack = await uploadTagged(
    request,
    admin,
    project.id,
    'Crack at the east joint',
    [`${word} defect`, 'concrete'],
    [150, 150, 160],
  );
  const spalling = await uploadTagged(
    request,
    admin,
    project.id,
    'Spalling under span 2',
    [],
    [120, 100, 90],
  );
  const overview = await uploadTagged(
    request,
    admin,
    project.id,
    'Deck overview',
    ['overview'],
    [80, 130, 170],
  );
  return { word, project, crack, spalling, overview };
}

const main = (page: Page) => page.getByRole('main');

test.describe('tags', () => {
  test('tag on the edit page, chips on the photo page, the project filtered by a chip, search by tag', async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeTagData(request, admin);
    const defect = `${data.word} defect`;
    await signIn(page, admin);

    await page.goto(`/upload/${data.spalling.id}/edit`);
    const field = page.getByRole('combobox', { name: 'Tags' });
    await field.click();
    // The workspace's tags starting with what was typed, with how many photos have each.
    await field.pressSequentially(data.word.slice(0, -2), { delay: 30 });
    const option = page.getByRole('option', { name: `${defect} 1 photo` });
    await expect(option).toBeVisible();
    await field.press('ArrowDown');
    await field.press('Enter');
    await field.pressSequentially('Level  3,', { delay: 20 });
    await expect(page.getByRole('button', { name: defect })).toBeVisible();
    await expect(page.getByRole('button', { name: 'level 3' })).toBeVisible();
    await screenshot(page, 'upload-edit-tags');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'upload-edit-tags');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto(`/upload/${data.spalling.id}`);
    const chips = main(page).getByRole('region', { name: 'Tags' }).getByRole('link');
    await expect(chips).toHaveText([defect, 'level 3']);
    await chips.first().click();
    await expect(page).toHaveURL(
      new RegExp(
        `/project/${data.project.id}\\?tag=${encodeURIComponent(defect).replace(/%20/g, '\\+')}$`,
      ),
    );
    const uploads = main(page).getByRole('region', { name: 'Uploads' });
    await expect(uploads.getByRole('img', { name: data.crack.name })).toBeVisible();
    await expect(uploads.getByRole('img', { name: data.spalling.name })).toBeVisible();
    await expect(uploads.getByRole('img', { name: data.overview.name })).toHaveCount(0);
    const filter = page.getByRole('navigation', { name: 'Filter uploads by tag' });
    await expect(filter.getByRole('link', { name: defect })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await screenshot(page, 'project-tag-filter');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'project-tag-filter');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A tag no photo of the project has any more.
    await page.goto(`/project/${data.project.id}?tag=${data.word}-none`);
    await expect(main(page).getByText(`No photos tagged “${data.word}-none”`)).toBeVisible();
    await main(page).getByRole('link', { name: 'Clear filter' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${data.project.id}$`));
    await expect(uploads.getByRole('img', { name: data.overview.name })).toBeVisible();

    // Search finds both photos by the tag's word.
    await page.goto(`/search?q=${data.word}&type=uploads`);
    await expect(main(page).getByRole('link', { name: data.crack.name }).first()).toBeVisible();
    await expect(main(page).getByRole('link', { name: data.spalling.name }).first()).toBeVisible();
    await expect(main(page).getByRole('link', { name: data.overview.name })).toHaveCount(0);
  });

  test("the viewer's info panel: chips for all, EDIT TAGS for the creator, typing stays in the field", async ({
    page,
    admin,
    request,
  }) => {
    const data = await makeTagData(request, admin);
    await signIn(page, admin);
    await page.goto(`/project/${data.project.id}?photo=${data.overview.id}`);
    const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
    const info = viewer.getByRole('complementary', { name: 'Photo info' });
    await expect(info.getByRole('heading', { name: data.overview.name })).toBeVisible();
    await expect(info.getByRole('link', { name: 'overview' })).toBeVisible();
    await info.getByRole('button', { name: 'Edit tags' }).click();
    const field = info.getByRole('combobox', { name: 'Tags' });
    await expect(field).toBeFocused();
    // Arrows and Escape typed in the field are the field's, not the viewer's.
    await field.pressSequentially(`${data.word.slice(0, -2)}`, { delay: 30 });
    const option = page.getByRole('option', { name: new RegExp(`${data.word} defect`) });
    await expect(option).toBeVisible();
    await field.press('ArrowLeft');
    await field.press('Escape');
    await expect(info.getByRole('heading', { name: data.overview.name })).toBeVisible();
    await expect(viewer).toBeVisible();
    await field.fill('');
    await field.pressSequentially('Handover', { delay: 20 });
    await field.press('Enter');
    await info.getByRole('button', { name: 'Save tags' }).click();
    await expect(info.getByRole('link', { name: 'handover' })).toBeVisible();
    await expect(info.getByRole('button', { name: 'Edit tags' })).toBeFocused();
    const saved = await request.get(`/api/upload/full/${data.overview.id}`, {
      headers: bearer(admin),
    });
    expect(((await saved.json()) as Upload).tags).toEqual(['overview', 'handover']);
  });

  test('another member sees the chips and no way to change them', async ({
    page,
    admin,
    member,
    request,
  }) => {
    const data = await makeTagData(request, admin);
    await signIn(page, member);
    await page.goto(`/upload/${data.crack.id}`);
    const tags = main(page).getByRole('region', { name: 'Tags' });
    await expect(tags.getByRole('link')).toHaveText([`${data.word} defect`, 'concrete']);
    await expect(tags.getByRole('button')).toHaveCount(0);
  });
});
