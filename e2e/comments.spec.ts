import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Comment } from '@sitelog/shared';
import { seriousViolations } from './axe.js';
import { bearer, createProject, createUpload, expect, signIn, test, unique } from './fixtures.js';

/**
 * Comments (issue 15) in the browser: a member's comment with a mention and an address is shown
 * with both linked; the admin writes one with `@` completion by keyboard and Ctrl+Enter, edits it
 * in place ("edited"), deletes the member's after a confirmation; the photo's tile counts its
 * comments. axe on the thread with the list open, and the page at 1280 and 375 px.
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

test.describe('comments', () => {
  test('read, write with a mention, edit and delete comments on a photo', async ({
    page,
    admin,
    member,
    request,
  }) => {
    const project = await createProject(request, admin, unique('Comment deck'));
    const photo = await createUpload(request, admin, project.id, unique('Crack at the joint'));
    const posted = await request.post(`/api/upload/${photo.id}/comments`, {
      headers: bearer(member),
      data: {
        body:
          `@${admin.firstname} ${admin.lastname} the crack runs to the left edge.\n` +
          'Detail spec: https://example.com/joints?ref=7. <b>not bold</b>',
      },
    });
    expect(posted.status(), await posted.text()).toBe(201);
    const memberComment = (await posted.json()) as Comment;
    expect(memberComment.mentions.map((m) => m.id)).toEqual([admin.id]);

    await signIn(page, admin);
    await page.goto(`/upload/${photo.id}#comments`);
    const thread = page.getByRole('region', { name: 'Comments' });
    const first = thread.getByRole('listitem').filter({ hasText: 'the crack runs' });
    await expect(
      first.getByRole('link', { name: `${member.firstname} ${member.lastname}` }),
    ).toBeVisible();
    await expect(
      first.getByRole('link', { name: `@${admin.firstname} ${admin.lastname}` }),
    ).toHaveAttribute('href', `/profile/${admin.id}`);
    const address = first.getByRole('link', { name: /https:\/\/example\.com\/joints\?ref=7/ });
    await expect(address).toHaveAttribute('href', 'https://example.com/joints?ref=7');
    await expect(address).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(first.getByText('<b>not bold</b>', { exact: false })).toBeVisible();
    await expect(first.locator('b')).toHaveCount(0);
    // The address ends in #comments: the thread is scrolled into view.
    await expect(thread.getByRole('heading', { name: 'Comments' })).toBeInViewport();

    // Write one, mentioning the member by keyboard.
    const field = thread.getByRole('combobox', { name: 'Comment' });
    await field.click();
    await field.pressSequentially(
      `Thanks @${member.firstname.toLowerCase()} ${member.lastname.slice(0, 2)}`,
      {
        delay: 30,
      },
    );
    const listbox = page.getByRole('listbox', { name: 'Members to mention' });
    const option = listbox.getByRole('option', { name: `${member.firstname} ${member.lastname}` });
    await expect(option).toBeVisible();
    await expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'upload-comments-mention');
    while ((await option.getAttribute('aria-selected')) !== 'true') await field.press('ArrowDown');
    await field.press('Enter');
    await expect(field).toHaveValue(`Thanks @${member.firstname} ${member.lastname} `);
    await field.pressSequentially('I will check it tomorrow.');
    await field.press('Control+Enter');
    await expect(field).toHaveValue('');
    const mine = thread.getByRole('listitem').filter({ hasText: 'I will check it tomorrow.' });
    await expect(
      mine.getByRole('link', { name: `@${member.firstname} ${member.lastname}` }),
    ).toHaveAttribute('href', `/profile/${member.id}`);

    // Edit it in place.
    await mine.getByRole('button', { name: 'Edit' }).click();
    const edit = mine.getByRole('combobox', { name: 'Edit comment' });
    await edit.press('End');
    await edit.pressSequentially(' Before noon.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(mine.getByText('Before noon.', { exact: false })).toBeVisible();
    await expect(mine.getByText('· edited')).toBeVisible();

    await screenshot(page, 'upload-comments');
    await page.setViewportSize({ width: 375, height: 812 });
    await screenshot(page, 'upload-comments');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The tile counts them.
    await page.goto(`/project/${project.id}`);
    await expect(page.getByRole('img', { name: '2 comments' })).toBeVisible();

    // An admin deletes the member's comment, after a confirmation.
    await page.goto(`/upload/${photo.id}`);
    await thread
      .getByRole('listitem')
      .filter({ hasText: 'the crack runs' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete this comment?' });
    await expect(dialog).toContainText(`${member.firstname} ${member.lastname}’s comment`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeHidden();
    await expect(thread.getByText('the crack runs', { exact: false })).toHaveCount(0);
    await expect(thread.getByRole('list', { name: '1 comment' })).toBeVisible();
  });
});
