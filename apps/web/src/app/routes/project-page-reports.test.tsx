import type { ReportPage } from '@sitelog/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPORTS_POLL_MS } from '@/features/reports/api/get-reports';
import { makeReport, makeReportDetail, reportPage } from '@/features/reports/test/report-fixtures';
import { makeProject } from '@/features/projects/test/make-project';
import { jsonError, type MockRequest } from '@/test/mock-api';
import { member, renderApp } from '@/test/render-app';

const project = makeProject({ id: 12, name: 'Riverside Depot' });
const archivedProject = makeProject({
  id: 12,
  name: 'Riverside Depot',
  archivedAt: '2026-11-20T09:00:00.000Z',
  archivedBy: { id: 3, firstname: 'Aisha', lastname: 'Okafor' },
});
const base = {
  'GET /api/project/id/12': { body: project },
  'GET /api/upload/project/12/latest': { body: [] },
};
const latest = 'GET /api/report/latest';
const params = (request: MockRequest | undefined) =>
  Object.fromEntries(new URL(request?.url ?? '/', 'http://localhost').searchParams);

const section = () => screen.findByRole('region', { name: 'Reports' });
const cards = async () =>
  within(await screen.findByRole('list', { name: 'Reports on this project' })).getAllByRole(
    'listitem',
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('the project page: Reports', () => {
  it("lists the project's latest reports, each with its status and DOWNLOAD, and ALL REPORTS", async () => {
    const reports = Array.from({ length: 8 }, (_, i) =>
      makeReport({ id: 50 - i, title: `Daily report ${i + 1}` }),
    );
    const { server } = renderApp('/project/12', {
      signedInAs: member,
      api: { ...base, [latest]: { body: reportPage(reports) } },
    });
    const shown = await cards();
    expect(shown).toHaveLength(6);
    expect(within(shown[0]!).getByRole('link', { name: 'Daily report 1' })).toHaveAttribute(
      'href',
      '/report/50',
    );
    expect(shown[0]).toHaveTextContent('PDF · 4 pages · 2.4 MB');
    expect(
      within(shown[0]!).getByRole('link', { name: 'Download “Daily report 1” (PDF)' }),
    ).toHaveAttribute('href', '/media/report-50.pdf?sig=abc');
    // The project is this page's: not named again on each card.
    expect(within(shown[0]!).queryByRole('link', { name: 'Riverside Depot' })).toBeNull();
    expect(params(server.callsTo(latest)[0])).toEqual({ project: '12', limit: '30' });

    const region = await section();
    expect(within(region).getByRole('link', { name: 'All reports' })).toHaveAttribute(
      'href',
      '/reports?project=12',
    );
    expect(within(region).getByRole('link', { name: 'New report' })).toHaveAttribute(
      'href',
      '/reports/create?project=12',
    );
  });

  it('offers RE-GENERATE to the author or an admin, after a confirmation', async () => {
    let answer: ReportPage = reportPage([
      makeReport({ canManage: true }),
      makeReport({ id: 39, title: 'Not mine' }),
    ]);
    const { server, user } = renderApp('/project/12', {
      signedInAs: member,
      api: {
        ...base,
        [latest]: () => ({ body: answer }),
        'POST /api/report/40/regenerate': () => {
          const queued = makeReport({ canManage: true, status: 'queued', progress: 0 });
          answer = reportPage([queued, makeReport({ id: 39, title: 'Not mine' })]);
          return { status: 202, body: makeReportDetail(queued) };
        },
      },
    });
    const [mine, other] = await cards();
    expect(within(other!).queryByRole('button', { name: /re-generate/i })).toBeNull();
    await user.click(within(mine!).getByRole('button', { name: 'Re-generate “Week 47 progress”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-generate “Week 47 progress”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Re-generate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST /api/report/40/regenerate')).toHaveLength(1);
    await waitFor(async () => expect((await cards())[0]).toHaveTextContent('Waiting to start…'));
    // The PDF made before is still there to download meanwhile.
    expect(
      within((await cards())[0]!).getByRole('link', { name: 'Download “Week 47 progress” (PDF)' }),
    ).toBeInTheDocument();
  });

  it('polls while a report is being made and stops once it is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer = reportPage([makeReport({ status: 'generating', progress: 1, pdf: null })]);
    const { server } = renderApp('/project/12', {
      signedInAs: member,
      api: { ...base, [latest]: () => ({ body: answer }) },
    });
    expect((await cards())[0]).toHaveTextContent('Generating… 1 of 3 photos');
    answer = reportPage([makeReport()]);
    await act(() => vi.advanceTimersByTimeAsync(REPORTS_POLL_MS));
    await waitFor(async () => expect((await cards())[0]).toHaveTextContent('PDF · 4 pages'));
    const calls = server.callsTo(latest).length;
    await act(() => vi.advanceTimersByTimeAsync(REPORTS_POLL_MS * 4));
    expect(server.callsTo(latest)).toHaveLength(calls);
  });

  it('says what a report is when there is none, with NEW REPORT', async () => {
    renderApp('/project/12', {
      signedInAs: member,
      api: { ...base, [latest]: { body: reportPage([]) } },
    });
    const region = await section();
    expect(await within(region).findByText('No reports yet')).toBeInTheDocument();
    const links = within(region).getAllByRole('link', { name: 'New report' });
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/reports/create?project=12');
  });

  it('offers no NEW REPORT on an archived project, and says why', async () => {
    renderApp('/project/12', {
      signedInAs: member,
      api: {
        ...base,
        'GET /api/project/id/12': { body: archivedProject },
        [latest]: { body: reportPage([]) },
      },
    });
    const region = await section();
    expect(
      await within(region).findByText(/This project is archived: no new reports can be made/),
    ).toBeInTheDocument();
    expect(within(region).queryByRole('link', { name: 'New report' })).toBeNull();
  });

  it('shows the server message with RETRY when the reports cannot be loaded', async () => {
    const { server, user } = renderApp('/project/12', {
      signedInAs: member,
      api: { ...base, [latest]: jsonError(503, 'unavailable', 'The server is busy.') },
    });
    const region = await section();
    expect(
      await within(region).findByText('Could not load this project’s reports'),
    ).toBeInTheDocument();
    // NEW REPORT stays at hand.
    expect(within(region).getByRole('link', { name: 'New report' })).toBeInTheDocument();
    server.set(latest, { body: reportPage([makeReport()]) });
    await user.click(within(region).getByRole('button', { name: 'Retry' }));
    expect(await cards()).toHaveLength(1);
  });
});
