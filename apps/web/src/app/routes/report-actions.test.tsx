import type { ReportDetail } from '@sitelog/shared';
import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REPORT_POLL_MS } from '@/features/reports/api/get-report';
import {
  makeReport,
  makeReportDetail,
  makeReportLink,
  makeReportPhoto,
  reportPage,
} from '@/features/reports/test/report-fixtures';
import { searchKeys } from '@/features/search/api/keys';
import { jsonError } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { admin, member, renderApp } from '@/test/render-app';

/*
 * The report's changes (RE-GENERATE, DELETE, CREATE LINK, REVOKE) offline, in an archived
 * project, refused by the server, on a report deleted elsewhere; and where the focus goes after
 * each. The happy paths are in reports-pages.test.tsx.
 */

const detailPath = 'GET /api/report/40';
const linksPath = 'GET /api/report/40/links';
const latest = 'GET /api/report/latest';
const own = (overrides: Partial<ReportDetail> = {}) =>
  makeReportDetail({ canManage: true, ...overrides });

afterEach(() => {
  vi.useRealTimers();
  onlineManager.setOnline(true);
});

describe('/report/:id offline', () => {
  it('disables RE-GENERATE, DELETE and CREATE LINK offline, saying why, and enables them back', async () => {
    renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: { body: own() }, [linksPath]: { body: [makeReportLink()] } },
    });
    const regenerate = await screen.findByRole('button', { name: 'Re-generate' });
    await screen.findByRole('list', { name: 'Public links' });
    expect(regenerate).toBeEnabled();
    setBrowserOnline(false);
    expect(regenerate).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create link' })).toBeDisabled();
    expect(regenerate).toHaveAccessibleDescription(
      'You are offline: re-generating and deleting need the connection.',
    );
    expect(
      screen.getByText('You are offline: a link can be made when the connection returns.'),
    ).toBeInTheDocument();
    setBrowserOnline(true);
    expect(regenerate).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Create link' })).toBeEnabled();
  });

  it('keeps a dialog’s confirm disabled offline, and Cancel and Escape close it while a request hangs', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [makeReportLink()] },
        // An answer that never comes (a connection that reaches nothing).
        'DELETE /api/report/40': () => new Promise(() => {}),
        'DELETE /api/report/link/900': () => new Promise(() => {}),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete “Week 47 progress”?' });
    setBrowserOnline(false);
    expect(within(dialog).getByRole('button', { name: 'Delete report' })).toBeDisabled();
    expect(dialog).toHaveTextContent('You are offline: the report can be deleted when');
    setBrowserOnline(true);
    await user.click(within(dialog).getByRole('button', { name: 'Delete report' }));
    await waitFor(() => expect(server.callsTo('DELETE /api/report/40')).toHaveLength(1));
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(cancel).toBeEnabled();
    await user.click(cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(server.callsTo('DELETE /api/report/link/900')).toHaveLength(1));
    // The busy button is disabled: the focus is back in the dialog (the focus trap does this in
    // a browser), and Escape still closes it.
    act(() => within(dialog).getByRole('button', { name: 'Cancel' }).focus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends a change at once even when the query client thinks it is offline, failing with the app’s message', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [] },
        'DELETE /api/report/40': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    // The browser still says online (the buttons are enabled) but the connection is gone:
    // paused, the request would hang and be sent on its own later.
    act(() => onlineManager.setOnline(false));
    await user.click(within(dialog).getByRole('button', { name: 'Delete report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Could not reach the server. Check your connection and try again.',
    );
    expect(server.callsTo('DELETE /api/report/40')).toHaveLength(1);
  });
});

describe('/report/:id read-only and refused', () => {
  it('offers no RE-GENERATE nor DELETE in an archived project, and says so', async () => {
    renderApp('/report/40', {
      signedInAs: admin,
      api: {
        [detailPath]: {
          body: own({ project: { id: 12, name: 'Riverside Depot', archived: true } }),
        },
        [linksPath]: { body: [] },
      },
    });
    expect(
      await screen.findByText(/Archived project: reports are read-only\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Re-generate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    // Its PDF can still be shared.
    expect(screen.getByRole('button', { name: 'Create link' })).toBeEnabled();
  });

  it('does not offer to make the PDF again without photos it holds: a new report instead', async () => {
    renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: {
          body: own({
            goneCount: 2,
            photos: [
              makeReportPhoto(1),
              makeReportPhoto(2, { uploadId: null, upload: null }),
              makeReportPhoto(3, { uploadId: null, upload: null }),
            ],
          }),
        },
        [linksPath]: { body: [] },
      },
    });
    const regenerate = await screen.findByRole('button', { name: 'Re-generate' });
    expect(regenerate).toBeDisabled();
    expect(regenerate).toHaveAccessibleDescription(
      '2 photos in this PDF were deleted or moved to another project since; making it again would leave them out. The PDF keeps them — make a new report instead.',
    );
    expect(screen.getByRole('link', { name: 'make a new report' })).toHaveAttribute(
      'href',
      '/reports/create?project=12',
    );
  });

  it('says what is left out when there is no PDF yet', async () => {
    const { user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own({ status: 'failed', pdf: null, goneCount: 2 }) },
        [linksPath]: { body: [] },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Re-generate' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      '2 photos of this report were deleted or moved to another project since: they are not in it.',
    );
  });

  it('shows the server’s 409 in the dialog, disables the confirm, and reloads the report', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [] },
        'POST /api/report/40/regenerate': jsonError(
          409,
          'report_photos_gone',
          '1 photo in this PDF was deleted or moved to another project. Make a new report instead.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Re-generate' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Re-generate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '1 photo in this PDF was deleted or moved to another project. Make a new report instead.',
    );
    expect(within(dialog).getByRole('button', { name: 'Re-generate' })).toBeDisabled();
    await waitFor(() => expect(server.callsTo(detailPath)).toHaveLength(2));
  });
});

describe('/report/:id deleted elsewhere', () => {
  it('stops polling at a 404 and says the report is gone instead of “Generating…”', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: makeReportDetail({ status: 'generating', progress: 1, pdf: null }) },
      },
    });
    expect(await screen.findByText(/Generating…/)).toBeInTheDocument();
    server.set(detailPath, jsonError(404, 'not_found', 'Report not found.'));
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report not found' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Generating…/)).toBeNull();
    const calls = server.callsTo(detailPath).length;
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 5));
    expect(server.callsTo(detailPath)).toHaveLength(calls);
  });

  it('stops polling after another failure, says so with RETRY, and polls again after it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const generating = makeReportDetail({ status: 'generating', progress: 1, pdf: null });
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: { [detailPath]: { body: generating } },
    });
    expect(await screen.findByText(/Generating…/)).toBeInTheDocument();
    server.set(detailPath, jsonError(503, 'unavailable', 'The server is busy.'));
    // The poll, then its two retries (1 s and 2 s apart).
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS + 4_000));
    expect(
      await screen.findByText(/This report could not be refreshed: The server is busy\./),
    ).toBeInTheDocument();
    const calls = server.callsTo(detailPath).length;
    await act(() => vi.advanceTimersByTimeAsync(REPORT_POLL_MS * 5));
    expect(server.callsTo(detailPath)).toHaveLength(calls);

    server.set(detailPath, { body: makeReportDetail() });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Report ready')).toBeInTheDocument();
    expect(screen.queryByText(/could not be refreshed/)).toBeNull();
  });

  it('shows the not-found state when DELETE answers 404', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [] },
        'DELETE /api/report/40': jsonError(404, 'not_found', 'Report not found.'),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    // Deleted elsewhere meanwhile.
    server.set(detailPath, jsonError(404, 'not_found', 'Report not found.'));
    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report not found' }),
    ).toBeInTheDocument();
  });

  it('shows the not-found state when CREATE LINK answers 404', async () => {
    const { server, user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [] },
        'POST /api/report/40/links': jsonError(404, 'not_found', 'Report not found.'),
      },
    });
    const create = await screen.findByRole('button', { name: 'Create link' });
    // Deleted elsewhere meanwhile.
    server.set(detailPath, jsonError(404, 'not_found', 'Report not found.'));
    await user.click(create);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Report not found' }),
    ).toBeInTheDocument();
  });
});

describe('/report/:id focus', () => {
  it('focuses the new link’s field, then the links’ heading after DONE and after a revoke', async () => {
    let links = [makeReportLink()];
    const { user } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: () => ({ body: links }),
        'POST /api/report/40/links': () => ({
          status: 201,
          body: { ...makeReportLink({ id: 901 }), path: '/api/report/shared/tok_abcdefghijklmnop' },
        }),
        'DELETE /api/report/link/900': () => {
          links = [{ ...links[0]!, active: false, revokedAt: new Date().toISOString() }];
          return { status: 204 };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create link' }));
    expect(await screen.findByRole('textbox', { name: 'Public link' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const heading = screen.getByRole('heading', { name: 'Public links' });
    expect(heading).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('focuses /reports’ heading after DELETE, and refreshes search results', async () => {
    const { router, user, queryClient } = renderApp('/report/40', {
      signedInAs: member,
      api: {
        [detailPath]: { body: own() },
        [linksPath]: { body: [] },
        'DELETE /api/report/40': { status: 204 },
        [latest]: { body: reportPage([]) },
      },
    });
    queryClient.setQueryData([...searchKeys.all, 'probe'], 'cached');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(await screen.findByRole('button', { name: 'Delete report' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reports'));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toHaveFocus(),
    );
    expect(queryClient.getQueryState([...searchKeys.all, 'probe'])?.isInvalidated).toBe(true);
  });
});

describe('report cards', () => {
  it('offers no RE-GENERATE on an archived project’s report, and none offline', async () => {
    const archived = makeReport({
      id: 39,
      title: 'Safety walk',
      canManage: true,
      project: { id: 14, name: 'Harbour Yard', archived: true },
    });
    const open = makeReport({ canManage: true });
    renderApp('/reports', {
      signedInAs: member,
      api: { [latest]: { body: reportPage([open, archived]) } },
    });
    const [first, second] = within(
      await screen.findByRole('list', { name: 'Reports' }),
    ).getAllByRole('listitem');
    expect(within(second!).queryByRole('button', { name: /re-generate/i })).toBeNull();
    const regenerate = within(first!).getByRole('button', { name: /^Re-generate/ });
    expect(regenerate).toBeEnabled();
    setBrowserOnline(false);
    expect(regenerate).toBeDisabled();
    expect(regenerate).toHaveAccessibleName('Re-generate “Week 47 progress” (offline)');
  });
});
