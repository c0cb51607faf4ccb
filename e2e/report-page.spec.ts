import { createProject, createUpload, expect, signIn, test, unique } from './fixtures.js';
import { createReadyReport } from './spec-routes.js';

/**
 * A report's page against the real server (issue 16): the PDF downloaded through DOWNLOAD, a
 * public link made, opened without a session (the PDF, counted) and revoked (then refused),
 * RE-GENERATE from the project's Reports section with the status moving back to ready, and
 * DELETE back to /reports. A member sees the same report read-only.
 */

test('a report is downloaded, shared outside the team, re-generated and deleted @phone', async ({
  page,
  admin,
  member,
  request,
  playwright,
}) => {
  test.setTimeout(3 * 60_000);
  const project = await createProject(request, admin, unique('Report page project'));
  const photo = await createUpload(request, admin, project.id, unique('Report page photo'));
  const report = await createReadyReport(request, admin, photo, unique('Shared report'));

  await signIn(page, admin);
  await page.goto(`/report/${report.id}`);
  await expect(page.getByRole('heading', { level: 1, name: report.title })).toBeVisible();
  await expect(page.getByText('Report ready', { exact: true })).toBeVisible();

  // DOWNLOAD saves the PDF.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: `Download “${report.title}” (PDF)` }).click(),
  ]);
  // Named after the report (the server's Content-Disposition names it too, and wins).
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(download.suggestedFilename().startsWith(report.title)).toBe(true);
  const saved = await download.path();
  const { readFile } = await import('node:fs/promises');
  expect((await readFile(saved)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A public link, for 7 days: its address shown once.
  const share = page.getByRole('region', { name: 'Share outside the team' });
  await expect(share.getByText('No links yet.')).toBeVisible();
  await share.getByRole('combobox', { name: 'Works for' }).click();
  await page.getByRole('option', { name: '7 days' }).click();
  await share.getByRole('button', { name: 'Create link' }).click();
  const field = share.getByRole('textbox', { name: 'Public link' });
  await expect(field).toHaveValue(/\/api\/report\/shared\/[A-Za-z0-9_-]{20,}$/);
  const url = await field.inputValue();
  await expect(share.getByRole('listitem')).toContainText('Active');

  // Opened by someone outside the team: no session, the PDF itself, and the download counted.
  const outsider = await playwright.request.newContext();
  const pdf = await outsider.get(url);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.reload();
  await expect(share.getByRole('listitem')).toContainText('1 download, last');

  // Revoked: the row says so, and the address no longer opens the PDF.
  await share.getByRole('button', { name: 'Revoke' }).click();
  const revoke = page.getByRole('dialog', { name: 'Revoke this link?' });
  await revoke.getByRole('button', { name: 'Revoke link' }).click();
  await expect(revoke).toBeHidden();
  await expect(share.getByRole('listitem')).toContainText('Revoked');
  expect([404, 410]).toContain((await outsider.get(url)).status());
  await outsider.dispose();

  // RE-GENERATE from the project's Reports section: queued again, then ready on its own.
  await page.goto(`/project/${project.id}`);
  const section = page.getByRole('region', { name: 'Reports' });
  await section.getByRole('button', { name: `Re-generate “${report.title}”` }).click();
  const confirm = page.getByRole('dialog', { name: `Re-generate “${report.title}”?` });
  await confirm.getByRole('button', { name: 'Re-generate' }).click();
  await expect(confirm).toBeHidden();
  await expect(section.getByText(/PDF · \d+ pages? · /)).toBeVisible({ timeout: 30_000 });
  await expect(
    section.getByRole('button', { name: `Re-generate “${report.title}”` }),
  ).toBeEnabled();

  // DELETE, after a confirmation naming it: back to /reports, where it is no more.
  await section.getByRole('link', { name: report.title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/report/${report.id}$`));
  await page.getByRole('button', { name: 'Delete' }).click();
  const remove = page.getByRole('dialog', { name: `Delete “${report.title}”?` });
  await remove.getByRole('button', { name: 'Delete report' }).click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('link', { name: report.title, exact: true })).toHaveCount(0);
  const gone = await request.get(`/api/report/${report.id}`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(gone.status()).toBe(404);
});

test('a member reads and downloads a report made by someone else, and changes nothing', async ({
  page,
  admin,
  member,
  request,
}) => {
  const project = await createProject(request, admin, unique('Read-only report project'));
  const photo = await createUpload(request, admin, project.id, unique('Read-only photo'));
  const report = await createReadyReport(request, admin, photo, unique('Read-only report'));

  await signIn(page, member);
  await page.goto(`/report/${report.id}`);
  await expect(page.getByText('Report ready', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: `Download “${report.title}” (PDF)` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the PDF in a new tab' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Re-generate' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Share outside the team' })).toHaveCount(0);
  const photos = page.getByRole('list', { name: 'The report’s 1 photo, in order' });
  await expect(photos.getByRole('link', { name: photo.name })).toHaveAttribute(
    'href',
    `/upload/${photo.id}`,
  );
  await expect(photos).toContainText(/SHA-256 [0-9a-f]{64}/);
});
