import type { ReportDetail, ReportPage } from '@sitelog/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPORT_POLL_MS } from '@/features/reports/api/get-report';
import { REPORTS_POLL_MS } from '@/features/reports/api/get-reports';
import {
  annLee,
  makeReport,
  makeReportDetail,
  makeReportLink,
  makeReportPhoto,
  reportPage,
} from '@/features/reports/test/report-fixtures';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { admin, member, renderApp } from '@/test/render-app';

const params = (request: MockRequest | undefined) =>
  Object.fromEntries(new URL(request?.url ?? '/', 'http://localhost').searchParams);

const ready = makeReport();
const failed = makeReport({
  id: 39,
  title: 'Safety walk, level 3',
  type: 'safety',
  status: 'failed',
  progress: 1,
  pdf: null,
  error: 'Photo 2 could not be read. Re-generate to try again.',
  project: { id: 14, name: 'Harbour Yard', archived: true },
  author: { id: member.id, firstname: member.firstname, lastname: member.lastname },
  thumb: null,
});
const generating = makeReport({
  id: 41,
  title: 'Defects, north wing',
  type: 'defects',
  status: 'generating',
  progress: 12,
  photoCount: 40,
  pdf: null,
});

const list = () => screen.findByRole('list', { name: 'Reports' });
const cards = async () => within(await list()).getAllByRole('listitem');
const latest = 'GET /api/report/latest';

afterEach(() => {
  vi.useRealTimers();
});

describe('/reports', () => {
  it('lists the latest reports with what each is, where its PDF is, and a real download link', async () => {
    const { server } = renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: { body: reportPage([ready, failed]) } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(document.title).toBe('Reports · Sitelog');
    const [first, second] = await cards();
    const title = within(first!).getByRole('link', { name: 'Week 47 progress' });
    expect(title).toHaveAttribute('href', '/report/40');
    expect(within(first!).getByRole('heading', { level: 2 })).toHaveTextContent('Week 47 progress');
    expect(first).toHaveTextContent('Daily site report');
    expect(within(first!).getByRole('link', { name: 'Riverside Depot' })).toHaveAttribute(
      'href',
      '/project/12',
    );
    expect(first).toHaveTextContent('By Ann Lee');
    expect(first).toHaveTextContent('3 photos');
    expect(first).toHaveTextContent('PDF · 4 pages · 2.4 MB');
    const download = within(first!).getByRole('link', {
      name: 'Download “Week 47 progress” (PDF)',
    });
    expect(download).toHaveAttribute('href', '/media/report-40.pdf?sig=abc');
    expect(download).toHaveAttribute('download', 'Week 47 progress (report 40).pdf');
    // Not the viewer's: no RE-GENERATE.
    expect(within(first!).queryByRole('button', { name: /re-generate/i })).toBeNull();

    expect(second).toHaveTextContent('Safety walk');
    expect(second).toHaveTextContent('Archived');
    expect(second).toHaveTextContent(
      'The PDF could not be made: Photo 2 could not be read. Re-generate to try again.',
    );
    // No PDF was made: nothing to download.
    expect(within(second!).queryByRole('link', { name: /download/i })).toBeNull();
    expect(params(server.callsTo(latest)[0])).toEqual({ limit: '30' });
  });

  it('shows the progress of a report being made and polls until it is ready, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: ReportPage = reportPage([generating, ready]);
    const { server } = renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: () => ({ body: answer }) },
    });
    const [first] = await cards();
    expect(first).toHaveTextContent('Generating… 12 of 40 photos');
    const bar = within(first!).getByRole('progressbar', {
      name: 'Progress of “Defects, north wing”',
    });
    expect(bar).toHaveAttribute('aria-valuenow', '30');
    expect(bar).toHaveAttribute('aria-valuetext', '12 of 40 photos');

    answer = reportPage([{ ...generating, progress: 30 }, ready]);
    await act(() => vi.advanceTimersByTimeAsync(REPORTS_POLL_MS));
    await waitFor(async () =>
      expect((await cards())[0]).toHaveTextContent('Generating… 30 of 40 photos'),
    );

    answer = reportPage([
      { ...generating, status: 'ready', progress: 40, pdf: { ...ready.pdf!, pages: 21 } },
      ready,
    ]);
    await act(() => vi.advanceTimersByTimeAsync(REPORTS_POLL_MS));
    await waitFor(async () => expect((await cards())[0]).toHaveTextContent('PDF · 21 pages'));
    const calls = server.callsTo(latest).length;
    expect(within((await cards())[0]!).queryByRole('progressbar')).toBeNull();
    // Nothing is being made any more: no more polls.
    await act(() => vi.advanceTimersByTimeAsync(REPORTS_POLL_MS * 4));
    expect(server.callsTo(latest)).toHaveLength(calls);
  });

  it('reads its filters from the address and writes them back, and clears them', async () => {
    const { server, router, user } = renderApp('/reports?project=12&type=daily&author=5', {
      signedInAs: member,
      api: {
        [latest]: (request) => ({
          body: reportPage(params(request).type === 'defects' ? [] : [ready]),
        }),
      },
    });
    await cards();
    expect(params(server.callsTo(latest)[0])).toEqual({
      project: '12',
      type: 'daily',
      author: '5',
      limit: '30',
    });
    // The project and the author are named from the reports shown, before any list loads.
    expect(screen.getByRole('combobox', { name: 'Project' })).toHaveValue('Riverside Depot');
    expect(screen.getByRole('combobox', { name: 'Author' })).toHaveValue('Ann Lee');
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveTextContent('Daily site report');

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Defect list' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?project=12&type=defects&author=5'),
    );
    expect(await screen.findByText('No reports match these filters')).toBeInTheDocument();
    expect(params(server.callsTo(latest).at(-1))).toMatchObject({ type: 'defects' });

    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await cards();
    expect(params(server.callsTo(latest).at(-1))).toEqual({ limit: '30' });
  });

  it('filters by author from the team, the viewer first as "Me"', async () => {
    const { server, router, user } = renderApp('/reports', {
      signedInAs: member,
      api: {
        [latest]: { body: reportPage([ready]) },
        'GET /api/user/all/profile': {
          body: {
            count: 1,
            profiles: [{ ...annLee, isActive: true, projectsCount: 1, uploadsCount: 3 }],
          },
        },
        'GET /api/project/all/list': { body: [] },
        'GET /api/project/archived': { body: [] },
      },
    });
    await cards();
    await user.click(screen.getByRole('combobox', { name: 'Author' }));
    const options = await screen.findAllByRole('option');
    expect(options[0]).toHaveTextContent('Me (Mia Mason)');
    await user.click(options[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(`?author=${member.id}`));
    await waitFor(() =>
      expect(params(server.callsTo(latest).at(-1))).toMatchObject({ author: String(member.id) }),
    );
  });

  it('loads older reports with LOAD MORE, by the next cursor', async () => {
    const { server, user } = renderApp('/reports', {
      signedInAs: member,
      api: {
        [latest]: (request) =>
          params(request).before === '40'
            ? { body: reportPage([failed]) }
            : { body: reportPage([ready], 40) },
      },
    });
    expect(await cards()).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await cards()).toHaveLength(2));
    expect(params(server.callsTo(latest).at(-1))).toEqual({ before: '40', limit: '30' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says how to make a report when there is none, with a way to pick a project', async () => {
    renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: { body: reportPage([]) } },
    });
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
    expect(screen.getByText(/open the project, go to its Reports section/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pick a project' })).toHaveAttribute(
      'href',
      '/projects/all',
    );
  });

  it('shows the server message with RETRY when the list cannot be loaded', async () => {
    const { server, user } = renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: jsonError(503, 'unavailable', 'The server is busy.') },
    });
    expect(await screen.findByText('Could not load the reports')).toBeInTheDocument();
    expect(screen.getByText('The server is busy.')).toBeInTheDocument();
    server.set(latest, { body: reportPage([ready]) });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await cards()).toHaveLength(1);
  });

  it('says it is offline instead of loading forever', async () => {
    setBrowserOnline(false);
    renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: { body: reportPage([ready]) } },
    });
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    setBrowserOnline(true);
    expect(await cards()).toHaveLength(1);
  });

  it('re-generates the viewer’s own report after asking, and shows it queued', async () => {
    const own = { ...failed, canManage: true, project: { ...failed.project, archived: false } };
    let answer = reportPage([own]);
    const { server, user } = renderApp('/reports', {
      signedInAs: member,
      api: {
        [latest]: () => ({ body: answer }),
        'POST /api/report/39/regenerate': () => {
          answer = reportPage([{ ...own, status: 'queued', progress: 0, error: null }]);
          return { status: 202, body: makeReportDetail({ ...answer.reports[0] }) };
        },
      },
    });
    const [card] = await cards();
    await user.click(
      within(card!).getByRole('button', { name: 'Re-generate “Safety walk, level 3”' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Re-generate “Safety walk, level 3”?',
    });
    // It has no PDF: the photos left are made into one.
    expect(dialog).toHaveTextContent(
      'Photos deleted or moved to another project since it was made are not in it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Re-generate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST /api/report/39/regenerate')).toHaveLength(1);
    await waitFor(async () => expect((await cards())[0]).toHaveTextContent('Waiting to start…'));
  });
});

const detailPath = 'GET /api/report/40';

describe('/report/:id', () => {
  it('shows the report: facts, intro as text, the ready PDF to download or open, the photos in order', async () => {
    const report = makeReportDetail({
      intro: 'Concrete <b>works</b> on level 2.\nScaffold inspected.',
    });
    const { server } = renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: { body: report } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Week 47 progress' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Week 47 progress · Sitelog');
    // The visible status is no live region (nor a heading); a separate one says the state.
    const status = screen.getByText('Report ready');
    expect(status).not.toHaveAttribute('role');
    expect(status.tagName).toBe('P');
    const live = document.querySelector('[data-report-live]');
    expect(live).toHaveAttribute('role', 'status');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toHaveTextContent('The report’s PDF is ready.');
    expect(screen.getByText(/PDF of 4 pages, 2\.4 MB, made/)).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Riverside Depot' })).toHaveAttribute(
      'href',
      '/project/12',
    );
    expect(within(main).getByRole('link', { name: 'Ann Lee' })).toHaveAttribute(
      'href',
      '/profile/5',
    );
    expect(main).toHaveTextContent('Lee & Sons Builders');
    expect(main).toHaveTextContent('2 photos per page');
    // The intro is text: markup shows as typed, line breaks kept.
    const intro = screen.getByText(/Concrete <b>works<\/b> on level 2\./);
    expect(intro.textContent).toBe('Concrete <b>works</b> on level 2.\nScaffold inspected.');
    expect(intro.querySelector('b')).toBeNull();

    const download = screen.getByRole('link', { name: 'Download “Week 47 progress” (PDF)' });
    expect(download).toHaveAttribute('href', '/media/report-40.pdf?sig=abc');
    expect(download).toHaveAttribute('download');
    const open = screen.getByRole('link', { name: 'Open the PDF in a new tab' });
    expect(open).toHaveAttribute('href', '/media/report-40.pdf?sig=abc');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');

    // Not the author nor an admin: no changes, no sharing, and the links are not asked for.
    expect(screen.queryByRole('button', { name: 'Re-generate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Share outside the team' })).toBeNull();
    expect(server.callsTo('GET /api/report/40/links')).toHaveLength(0);

    const photos = screen.getByRole('list', { name: 'The report’s 3 photos, in order' });
    const rows = within(photos).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByRole('link', { name: 'Photo 1' })).toHaveAttribute(
      'href',
      '/upload/71',
    );
    expect(rows[0]).toHaveTextContent('Caption 1');
    expect(rows[0]).toHaveTextContent(`SHA-256 ${'1'.repeat(64)}`);
    expect(rows[0]!.querySelector('img')).toHaveAttribute('src', '/media/preview-71.webp?sig=abc');
    // Once, and no polling: the PDF is ready.
    expect(server.callsTo(detailPath)).toHaveLength(1);
  });

  it('shows the progress while the PDF is made, announces only the state changes, polls every second, and stops once ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: ReportDetail = makeReportDetail({
      status: 'queued',
      progress: 0,
      photoCount: 40,
      pdf: null,
    });
    const { server } = renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: () => ({ body: answer }) },
    });
    const shown = await screen.findByText('Waiting to start…');
    const live = document.querySelector('[data-report-live]')!;
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toHaveTextContent('The report is waiting to be made.');
    expect(screen.queryByRole('link', { name: /download/i })).toBeNull();
    // Every change of the live region's text, as a screen reader would hear it.
    const heard: string[] = [];
    const observer = new MutationObserver(() => heard.push(live.textContent ?? ''));
    observer.observe(live, { childList: true, characterData: true, subtree: true });

    answer = { ...answer, status: 'generating', progress: 12 };
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS));
    await waitFor(() => expect(shown).toHaveTextContent('Generating… 12 of 40 photos'));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '12 of 40 photos');
    answer = { ...answer, progress: 30 };
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS));
    await waitFor(() => expect(shown).toHaveTextContent('Generating… 30 of 40 photos'));

    answer = { ...makeReportDetail({ photoCount: 40, progress: 40 }) };
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS));
    await waitFor(() => expect(shown).toHaveTextContent('Report ready'));
    observer.disconnect();
    // Each state once: no "12 of 40", "30 of 40" ticks.
    expect(heard.filter((text, i) => text !== heard[i - 1])).toEqual([
      'The report’s PDF is being made.',
      'The report’s PDF is ready.',
    ]);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Download “Week 47 progress” (PDF)' }),
    ).toBeInTheDocument();
    const calls = server.callsTo(detailPath).length;
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 5));
    expect(server.callsTo(detailPath)).toHaveLength(calls);
  });

  it('marks a photo deleted or moved away since the report was made, kept in the PDF made before', async () => {
    const report = makeReportDetail({
      goneCount: 1,
      photos: [
        makeReportPhoto(1),
        makeReportPhoto(2, { uploadId: null, upload: null, name: 'Formwork east' }),
        makeReportPhoto(3),
      ],
    });
    renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: { body: report } },
    });
    const photos = await screen.findByRole('list', { name: 'The report’s 3 photos, in order' });
    const gone = within(photos).getAllByRole('listitem')[1]!;
    expect(gone).toHaveTextContent('Formwork east');
    expect(gone).toHaveTextContent(
      /Deleted or moved to another project — kept in the PDF made on Nov 21, 2026/,
    );
    expect(gone).toHaveTextContent(`SHA-256 ${'2'.repeat(64)}`);
    expect(within(gone).queryByRole('link')).toBeNull();
    expect(gone.querySelector('img')).toBeNull();
    expect(screen.getByRole('main')).toHaveTextContent('3 photos (1 deleted or moved since)');
  });

  it('re-generates after a confirmation, then puts the focus on the status', async () => {
    let answer = makeReportDetail({ canManage: true, goneCount: 0 });
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: () => ({ body: answer }),
        'GET /api/report/40/links': { body: [] },
        'POST /api/report/40/regenerate': () => {
          answer = { ...answer, status: 'queued', progress: 0 };
          return { status: 202, body: answer };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Re-generate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-generate “Week 47 progress”?' });
    expect(dialog).not.toHaveTextContent(/leave|left out/);
    expect(dialog).toHaveTextContent('The current PDF stays available until the new one is ready.');
    await user.click(within(dialog).getByRole('button', { name: 'Re-generate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST /api/report/40/regenerate')).toHaveLength(1);
    // The button pressed is disabled now: the focus is on the status line instead.
    await waitFor(() => expect(screen.getByText('Waiting to start…')).toHaveFocus());
    // The PDF made before can still be downloaded meanwhile.
    expect(screen.getByText(/It stays available until the new one is ready\./)).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Download “Week 47 progress” (PDF)' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Re-generate' })).toBeDisabled();
  });

  it('says why a re-generation was refused, in the dialog', async () => {
    const { user } = renderApp('/report/40', {
      signedInAs: admin,
      api: {
        [detailPath]: { body: makeReportDetail({ canManage: true }) },
        'GET /api/report/40/links': { body: [] },
        'POST /api/report/40/regenerate': jsonError(
          409,
          'conflict',
          'This report is being made already.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Re-generate' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Re-generate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This report is being made already.',
    );
  });

  it('deletes after a confirmation naming the report, then goes to /reports', async () => {
    const { server, router, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: makeReportDetail({ canManage: true }) },
        'GET /api/report/40/links': { body: [] },
        'DELETE /api/report/40': { status: 204 },
        [latest]: { body: reportPage([]) },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Week 47 progress”?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    // Cancel first: nothing is deleted.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('DELETE /api/report/40')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reports'));
    expect(server.callsTo('DELETE /api/report/40')).toHaveLength(1);
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
  });

  it('shares outside the team: lists links, makes one shown once with COPY, revokes one', async () => {
    const downloaded = makeReportLink({
      downloads: 3,
      lastDownloadAt: '2026-11-22T08:30:00.000Z',
    });
    const revoked = makeReportLink({
      id: 899,
      revokedAt: '2026-11-21T12:00:00.000Z',
      active: false,
    });
    let links = [downloaded, revoked];
    const created = makeReportLink({ id: 901, expiresAt: '2026-11-28T11:00:00.000Z' });
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: makeReportDetail({ canManage: true }) },
        'GET /api/report/40/links': () => ({ body: links }),
        'POST /api/report/40/links': () => {
          links = [created, ...links];
          return {
            status: 201,
            body: { ...created, path: '/api/report/shared/tok_abcdefghijklmnopqrstu' },
          };
        },
        'DELETE /api/report/link/900': () => {
          links = links.map((link) =>
            link.id === 900
              ? { ...link, active: false, revokedAt: new Date().toISOString() }
              : link,
          );
          return { status: 204 };
        },
      },
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Share outside the team' }),
    ).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Public links' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Made Nov 21, 2026 by Ann Lee');
    expect(first).toHaveTextContent('Active');
    expect(first).toHaveTextContent(/3 downloads, last Nov 22, 2026/);
    expect(second).toHaveTextContent('Revoked');
    expect(within(second!).queryByRole('button', { name: 'Revoke' })).toBeNull();

    // 30 days unless chosen otherwise; 7 chosen here.
    expect(screen.getByRole('combobox', { name: 'Works for' })).toHaveTextContent('30 days');
    await user.click(screen.getByRole('combobox', { name: 'Works for' }));
    await user.click(await screen.findByRole('option', { name: '7 days' }));
    await user.click(screen.getByRole('button', { name: 'Create link' }));
    const field = await screen.findByRole('textbox', { name: 'Public link' });
    const url = `${window.location.origin}/api/report/shared/tok_abcdefghijklmnopqrstu`;
    expect(field).toHaveValue(url);
    expect(server.callsTo('POST /api/report/40/links')[0]?.body).toEqual({ expiresInDays: 7 });
    expect(screen.getByText(/it is shown only this once/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(screen.getByText('Link copied.')).toBeInTheDocument());
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(url);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Public link' })).toBeNull();

    const row = within(list)
      .getAllByRole('listitem')
      .find((item) => item.getAttribute('data-report-link') === '900')!;
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('DELETE /api/report/link/900')).toHaveLength(1);
    await waitFor(() => expect(row).toHaveTextContent('Revoked'));
  });

  it('makes no link before the PDF exists, and says so', async () => {
    renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: {
          body: makeReportDetail({ canManage: true, status: 'generating', progress: 1, pdf: null }),
        },
        'GET /api/report/40/links': { body: [] },
      },
    });
    expect(await screen.findByText('No links yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create link' })).toBeDisabled();
    expect(screen.getByText('A link can be made once the PDF is ready.')).toBeInTheDocument();
  });

  it('says the report was not found for an unknown id, and for an id that is not one', async () => {
    const { server, unmount } = renderApp('/report/404', {
      signedInAs: member,
      api: { 'GET /api/report/404': jsonError(404, 'not_found', 'Report not found.') },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report not found' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Report not found · Sitelog');
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'All reports' }),
    ).toHaveAttribute('href', '/reports');
    expect(server.callsTo('GET /api/report/404')).toHaveLength(1);
    unmount();

    const second = renderApp('/report/abc', { signedInAs: member });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report not found' }),
    ).toBeInTheDocument();
    expect(second.server.calls.filter((call) => call.path.startsWith('/api/report'))).toEqual([]);
  });

  it('shows the server message with RETRY when the report cannot be loaded', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: jsonError(503, 'unavailable', 'The server is busy.') },
    });
    expect(await screen.findByText('The report could not be loaded')).toBeInTheDocument();
    server.set(detailPath, { body: makeReportDetail() });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Week 47 progress' }),
    ).toBeInTheDocument();
  });

  it('says it is offline instead of loading forever', async () => {
    setBrowserOnline(false);
    renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: { body: makeReportDetail() } },
    });
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    setBrowserOnline(true);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Week 47 progress' }),
    ).toBeInTheDocument();
  });
});
