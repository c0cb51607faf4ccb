// The report creator (issue 16) at /reports/create?project=ID: the photos of the range chosen
// by default, filters, reordering, captions, the request it sends, validation, errors kept in
// the form, an archived project, offline; against a mocked API.
import type { CreateReportRequest, Project, ReportDetail, Upload } from '@sitelog/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeProject } from '@/features/projects/test/make-project';
import { searchKeys } from '@/features/search/api/keys';
import { fixTheClock, makeUpload } from '@/features/uploads/test/upload-fixtures';
import { jsonError, type MockRoutes } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';

// Wednesday 18 Nov 2026, noon on this machine's clock: "today" for the default range.
fixTheClock(new Date(2026, 10, 18, 12));

/** A local time on a day of November 2026, as the API sends it (an instant). */
const at = (day: number, hour: number, minute = 0) =>
  new Date(2026, 10, day, hour, minute).toISOString();

const mia = { id: member.id, firstname: member.firstname, lastname: member.lastname };
const zoe = { id: 5, firstname: 'Zoë', lastname: 'Müller' };

const project: Project = makeProject({
  id: 31,
  name: 'Harbour Bridge',
  location: 'Sydney, Australia',
  creator: mia,
});

/** Photos of project 31. */
const photo = (id: number, name: string, overrides: Partial<Upload> = {}): Upload =>
  makeUpload({
    id,
    name,
    description: `${name}: as found.`,
    project: { id: 31, name: 'Harbour Bridge', archived: false },
    creator: mia,
    tags: [],
    ...overrides,
  });

// Uploaded today at 9, 10 and 11 (the 10 o'clock one taken at 8:30 by the camera), yesterday,
// and a week ago. The feed answers newest upload first.
const pier = photo(11, 'Pier 3 formwork', { createdAt: at(18, 11), tags: ['concrete'] });
const deck = photo(12, 'Deck rebar', {
  createdAt: at(18, 10),
  latitude: 48.137431,
  longitude: 11.575492,
  capturedAt: '2026-11-18T08:30:00',
  creator: zoe,
  tags: ['rebar', 'concrete'],
});
const crane = photo(13, 'Crane lift', { createdAt: at(18, 9), description: '' });
const yesterday = photo(14, 'Bearing pads', { createdAt: at(17, 15), creator: zoe });
const lastWeek = photo(15, 'Site fence', { createdAt: at(11, 8) });
const feed = [pier, deck, crane, yesterday, lastWeek];

function reportAnswer(body: CreateReportRequest, id = 77): ReportDetail {
  return {
    id,
    project: { id: 31, name: 'Harbour Bridge', archived: false },
    author: mia,
    type: body.type,
    title: body.title,
    from: body.from,
    to: body.to,
    layout: body.layout,
    photoCount: body.photos.length,
    status: 'queued',
    progress: 0,
    error: null,
    pdf: null,
    thumb: null,
    createdAt: at(18, 12),
    canManage: true,
    intro: body.intro ?? '',
    teamName: body.teamName ?? 'Okafor Build Ltd',
    timeZone: body.timeZone ?? 'UTC',
    photos: body.photos.map((p, i) => ({
      position: i + 1,
      uploadId: Number(p.uploadId),
      name: `Photo ${p.uploadId}`,
      caption: p.caption ?? '',
      sha256: null,
      upload: null,
    })),
    goneCount: 0,
  };
}

function renderCreator(api: MockRoutes = {}, options: { project?: Project } = {}) {
  return renderApp('/reports/create?project=31', {
    signedInAs: member,
    api: {
      'GET /api/project/id/31': { body: options.project ?? project },
      'GET /api/upload/project/31/latest': { body: feed },
      'GET /api/workspace': { body: { teamName: 'Okafor Build Ltd' } },
      'POST /api/report': (request) => ({
        status: 202,
        body: reportAnswer(request.body as CreateReportRequest),
      }),
      ...api,
    },
  });
}

const reportList = () => screen.findByRole('list', { name: 'Photos in the report, in order' });

/** The names of the report's photos, in order. */
async function reportOrder(): Promise<string[]> {
  const items = within(await reportList()).getAllByRole('listitem');
  return items.map((item) => item.getAttribute('aria-label')!.replace(/^\d+\. /, ''));
}

/**
 * Waits until the report holds `count` photos: the page, the feed and the range. Generous: the
 * whole app renders in jsdom on a machine that is often busy.
 */
const inTheReport = (count: number) =>
  screen.findByText(
    `In the report: ${count} ${count === 1 ? 'photo' : 'photos'}`,
    {},
    { timeout: 20_000 },
  );

const pickGrid = () => screen.findByRole('list', { name: 'The project’s photos' });

/** The photos the grid shows, by name. */
async function gridNames(): Promise<string[]> {
  return within(await pickGrid())
    .getAllByRole('checkbox')
    .map((box) => document.getElementById(box.getAttribute('aria-labelledby')!)!.textContent!);
}

const sentBody = (server: ReturnType<typeof renderCreator>['server']) =>
  server.callsTo('POST /api/report').at(-1)?.body as CreateReportRequest;

describe('/reports/create (report-creator)', { timeout: 60_000 }, () => {
  it('starts with the photos uploaded today, in the order taken, captions from their descriptions', async () => {
    renderCreator();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Create a report' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Create a report · Sitelog');
    expect(await screen.findByRole('link', { name: 'Harbour Bridge' })).toHaveAttribute(
      'href',
      '/project/31',
    );
    // The camera took Deck rebar at 8:30, before Crane lift was uploaded at 9.
    expect(await inTheReport(3)).toBeInTheDocument();
    expect(await reportOrder()).toEqual(['Deck rebar', 'Crane lift', 'Pier 3 formwork']);
    expect(screen.getByText('3 photos uploaded on 18 Nov 2026.')).toBeInTheDocument();
    expect(screen.getByLabelText('Caption for Deck rebar')).toHaveValue('Deck rebar: as found.');
    expect(screen.getByLabelText('Caption for Crane lift')).toHaveValue('');
    // The form's defaults: today, the type's title, the workspace's team name, 2 per page.
    expect(screen.getByLabelText(/^From/)).toHaveValue('2026-11-18');
    expect(screen.getByLabelText(/^To/)).toHaveValue('2026-11-18');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue(
      'Daily site report – 18 Nov 2026',
    );
    expect(await screen.findByDisplayValue('Okafor Build Ltd')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '2 photos per page' })).toBeChecked();
    // The grid shows today's photos, ticked; yesterday's only once "all" is asked for.
    expect(await gridNames()).toEqual(['Pier 3 formwork', 'Deck rebar', 'Crane lift']);
    for (const box of within(await pickGrid()).getAllByRole('checkbox')) expect(box).toBeChecked();
  });

  it('sends the photos in the order shown with their captions, the layout and the time zone, then opens the report', async () => {
    const { user, server, router, queryClient } = renderCreator();
    queryClient.setQueryData(searchKeys.typeAhead('girder'), {});
    await inTheReport(3);

    await user.click(screen.getByRole('button', { name: 'Move Pier 3 formwork up' }));
    expect(await reportOrder()).toEqual(['Deck rebar', 'Pier 3 formwork', 'Crane lift']);
    // The focus stays on the photo moved, and where it went is said.
    expect(screen.getByRole('button', { name: 'Move Pier 3 formwork up' })).toHaveFocus();
    expect(screen.getByText('Pier 3 formwork moved to position 2 of 3.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move Deck rebar down' }));
    expect(await reportOrder()).toEqual(['Pier 3 formwork', 'Deck rebar', 'Crane lift']);

    await user.click(screen.getByLabelText('Caption for Crane lift'));
    await user.paste('Crane lift of the east girder');
    await user.click(screen.getByRole('radio', { name: '4 photos per page' }));
    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Safety walk' }));
    // The automatic title follows the type.
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Safety walk – 18 Nov 2026');
    await user.click(screen.getByRole('textbox', { name: 'Intro' }));
    await user.paste('Dry, 8 °C. Crew of 6.');

    await user.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/77'));
    // Search results show reports: the page has the new one refreshed there too.
    expect(queryClient.getQueryState(searchKeys.typeAhead('girder'))?.isInvalidated).toBe(true);
    expect(sentBody(server)).toEqual({
      projectId: 31,
      type: 'safety',
      title: 'Safety walk – 18 Nov 2026',
      intro: 'Dry, 8 °C. Crew of 6.',
      from: '2026-11-18',
      to: '2026-11-18',
      layout: 4,
      photos: [
        { uploadId: 11, caption: 'Pier 3 formwork: as found.' },
        { uploadId: 12, caption: 'Deck rebar: as found.' },
        { uploadId: 13, caption: 'Crane lift of the east girder' },
      ],
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('sends nothing on Enter in a field (a phone’s Go key): only GENERATE REPORT does', async () => {
    const { user, server, router } = renderCreator();
    await inTheReport(3);
    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.click(title);
    await user.keyboard('{End}!{Enter}');
    await user.click(await screen.findByDisplayValue('Okafor Build Ltd'));
    await user.keyboard('{Enter}');
    await user.click(screen.getByLabelText('Caption for Deck rebar'));
    await user.keyboard('{Enter}');
    // A submit however it comes (implicit submission) does nothing either.
    fireEvent.submit(screen.getByRole('form', { name: 'New report' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.callsTo('POST /api/report')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/reports/create');
    expect(title).toHaveValue('Daily site report – 18 Nov 2026!');

    // The button, by keyboard as by mouse.
    const generate = screen.getByRole('button', { name: 'Generate report' });
    generate.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.callsTo('POST /api/report')).toHaveLength(1));
    expect(sentBody(server)).toMatchObject({ title: 'Daily site report – 18 Nov 2026!' });
  });

  it('warns when photos picked by hand were uploaded outside the days, and widens the days to fit', async () => {
    const { user, server } = renderCreator();
    await inTheReport(3);
    const warning = (n: number, range: string) =>
      `${n} ${n === 1 ? 'photo was' : 'photos were'} uploaded outside ${range}. The cover will say ${range}.`;
    // The range's own photos: nothing to warn about.
    expect(screen.queryByText(/uploaded outside/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: /^Only photos uploaded on/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Bearing pads' }));
    await user.click(screen.getByRole('checkbox', { name: 'Site fence' }));
    expect(await inTheReport(5)).toBeInTheDocument();
    // By the dates and by the button; the one by the dates is said as it appears.
    expect(screen.getAllByText(warning(2, '18 Nov 2026'))).toHaveLength(2);
    const byDates = screen
      .getAllByText(warning(2, '18 Nov 2026'))
      .map((text) => text.closest('[data-outside-range]')!);
    expect(byDates.map((alert) => alert.getAttribute('role'))).toEqual(['status', 'note']);
    expect(
      within(screen.getByRole('region', { name: 'Preview' })).getByRole('group', { name: 'Cover' }),
    ).toHaveTextContent('Period18 Nov 2026');

    // New days count again: by the upload day, as the range picks its photos.
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-17' } });
    expect(screen.getAllByText(warning(1, '17–18 Nov 2026'))).toHaveLength(2);
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-12' } });
    expect(screen.getAllByText(warning(1, '12–18 Nov 2026'))).toHaveLength(2);

    await user.click(screen.getAllByRole('button', { name: 'Widen dates to fit the photos' })[1]!);
    expect(screen.getByLabelText(/^From/)).toHaveValue('2026-11-11');
    expect(screen.getByLabelText(/^To/)).toHaveValue('2026-11-18');
    // The automatic title follows; the photos stay as picked.
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue(
      'Daily site report – 11–18 Nov 2026',
    );
    expect(screen.queryByText(/uploaded outside/)).not.toBeInTheDocument();
    expect(await inTheReport(5)).toBeInTheDocument();

    // Photos after To: the end moves, a title typed by hand stays.
    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.paste('Fence and bearings');
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-11' } });
    fireEvent.change(screen.getByLabelText(/^To/), { target: { value: '2026-11-11' } });
    expect(screen.getAllByText(warning(4, '11 Nov 2026'))).toHaveLength(2);
    await user.click(screen.getAllByRole('button', { name: 'Widen dates to fit the photos' })[0]!);
    expect(screen.getByLabelText(/^From/)).toHaveValue('2026-11-11');
    expect(screen.getByLabelText(/^To/)).toHaveValue('2026-11-18');
    expect(title).toHaveValue('Fence and bearings');

    await user.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(server.callsTo('POST /api/report')).toHaveLength(1));
    expect(sentBody(server)).toMatchObject({ from: '2026-11-11', to: '2026-11-18' });
    expect(sentBody(server).photos).toHaveLength(5);
  });

  it('sends a team name typed for this report, and a title typed by hand', async () => {
    const { user, server } = renderCreator();
    const team = await screen.findByDisplayValue('Okafor Build Ltd');
    await user.clear(team);
    await user.paste('Okafor & Partners');
    const title = screen.getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.paste('Girder handover');
    // A title typed by hand stays when the dates change.
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-17' } });
    expect(title).toHaveValue('Girder handover');
    await inTheReport(4);
    await user.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(server.callsTo('POST /api/report')).toHaveLength(1));
    expect(sentBody(server)).toMatchObject({
      title: 'Girder handover',
      teamName: 'Okafor & Partners',
      from: '2026-11-17',
      to: '2026-11-18',
    });
  });

  it('filters the grid by tag and by author', async () => {
    const { user } = renderCreator();
    const rangeOnly = await screen.findByRole('checkbox', { name: /^Only photos uploaded on/ });
    await user.click(rangeOnly);
    expect(rangeOnly).not.toBeChecked();
    expect(await gridNames()).toEqual([
      'Pier 3 formwork',
      'Deck rebar',
      'Crane lift',
      'Bearing pads',
      'Site fence',
    ]);

    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    await user.click(await screen.findByRole('option', { name: 'concrete (2)' }));
    expect(await gridNames()).toEqual(['Pier 3 formwork', 'Deck rebar']);

    await user.click(screen.getByRole('combobox', { name: 'Author' }));
    await user.click(await screen.findByRole('option', { name: 'Zoë Müller' }));
    expect(await gridNames()).toEqual(['Deck rebar']);

    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    await user.click(await screen.findByRole('option', { name: 'Any tag' }));
    expect(await gridNames()).toEqual(['Deck rebar', 'Bearing pads']);
    // The filters choose what the grid shows, not what the report holds.
    expect(await reportOrder()).toEqual(['Deck rebar', 'Crane lift', 'Pier 3 formwork']);
  });

  it('adds and removes photos; after that, new dates leave the choice alone until USE PHOTOS IN RANGE', async () => {
    const { user } = renderCreator();
    await inTheReport(3);
    // Untouched, the choice follows the dates.
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-17' } });
    await waitFor(async () =>
      expect(await reportOrder()).toEqual([
        'Bearing pads',
        'Deck rebar',
        'Crane lift',
        'Pier 3 formwork',
      ]),
    );
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue(
      'Daily site report – 17–18 Nov 2026',
    );

    await user.click(screen.getByRole('button', { name: 'Remove Crane lift' }));
    expect(await reportOrder()).toEqual(['Bearing pads', 'Deck rebar', 'Pier 3 formwork']);
    // The focus goes to the next photo's Remove.
    expect(screen.getByRole('button', { name: 'Remove Pier 3 formwork' })).toHaveFocus();
    await user.click(screen.getByRole('checkbox', { name: /^Only photos uploaded between/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Site fence' }));
    expect(await reportOrder()).toEqual([
      'Bearing pads',
      'Deck rebar',
      'Pier 3 formwork',
      'Site fence',
    ]);
    expect(screen.getByRole('checkbox', { name: 'Crane lift' })).not.toBeChecked();

    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-18' } });
    expect(await reportOrder()).toEqual([
      'Bearing pads',
      'Deck rebar',
      'Pier 3 formwork',
      'Site fence',
    ]);
    expect(
      screen.getByText(
        'You picked the photos by hand, so changing the dates leaves them as they are.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use photos in range' }));
    expect(await reportOrder()).toEqual(['Deck rebar', 'Crane lift', 'Pier 3 formwork']);
    expect(screen.queryByRole('button', { name: 'Use photos in range' })).not.toBeInTheDocument();
  });

  it(
    'reads every page of the feed that reaches into the range, and no further',
    { timeout: 60_000 },
    async () => {
      // 48 (a full page) today, then a page with 10 more today and one from last week.
      const many = Array.from({ length: 58 }, (_, i) =>
        photo(1000 - i, `Photo ${1000 - i}`, { createdAt: at(18, 11, 59 - i) }),
      );
      const pages: Record<string, Upload[]> = {
        first: many.slice(0, 48),
        [String(many[47]!.id)]: [...many.slice(48), lastWeek],
      };
      const { server } = renderCreator({
        'GET /api/upload/project/31/latest': (request) => {
          const before = new URL(request.url, 'http://localhost').searchParams.get('before');
          return { body: pages[before ?? 'first'] ?? [] };
        },
      });
      // Found by text: role queries over 58 photos with their fields are slow in jsdom.
      expect(
        await screen.findByText('In the report: 58 photos', {}, { timeout: 30_000 }),
      ).toBeInTheDocument();
      const calls = server.callsTo('GET /api/upload/project/31/latest');
      expect(
        calls.map((c) => new URL(c.url, 'http://localhost').searchParams.get('before')),
      ).toEqual([null, String(many[47]!.id)]);
      // Photo 1000 was uploaded last, so taken last: it closes the report.
      const rows = document.querySelectorAll('[data-report-photo]');
      expect(rows[0]).toHaveAttribute('aria-label', '1. Photo 943');
      expect(rows[57]).toHaveAttribute('aria-label', '58. Photo 1000');
      // The second page was the feed's last: nothing older to load.
      expect(screen.queryByText('Load older photos')).not.toBeInTheDocument();
    },
  );

  it('reorders with the keyboard on a drag handle, saying each step', async () => {
    // jsdom lays nothing out: each row of the report's list gets a box of its own, one under
    // the other, as a browser would draw them (dnd-kit moves by these boxes).
    const real = Object.getOwnPropertyDescriptor(Element.prototype, 'getBoundingClientRect')!
      .value as (this: Element) => DOMRect;
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      const row = this.closest('[data-report-photo]');
      if (!row?.parentElement) return real.call(this);
      const index = [...row.parentElement.children].indexOf(row);
      const top = 100 + index * 120;
      const inner = row !== this;
      return DOMRect.fromRect({
        x: inner ? 10 : 0,
        y: inner ? top + 10 : top,
        width: inner ? 40 : 600,
        height: inner ? 40 : 110,
      });
    });
    const { user } = renderCreator();
    await inTheReport(3);
    const live = () => document.querySelector('[id^="DndLiveRegion"]');
    screen.getByRole('button', { name: 'Reorder Pier 3 formwork' }).focus();
    await user.keyboard(' ');
    await waitFor(() =>
      expect(live()).toHaveTextContent('Picked up Pier 3 formwork, position 3 of 3.'),
    );
    await user.keyboard('{ArrowUp}');
    await waitFor(() =>
      expect(live()).toHaveTextContent('Pier 3 formwork is over position 2 of 3.'),
    );
    await user.keyboard('{ArrowUp}');
    await waitFor(() =>
      expect(live()).toHaveTextContent('Pier 3 formwork is over position 1 of 3.'),
    );
    await user.keyboard(' ');
    await waitFor(() =>
      expect(live()).toHaveTextContent('Pier 3 formwork dropped at position 1 of 3.'),
    );
    expect(await reportOrder()).toEqual(['Pier 3 formwork', 'Deck rebar', 'Crane lift']);

    // Escape puts it back where it was.
    screen.getByRole('button', { name: 'Reorder Crane lift' }).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(live()).toHaveTextContent('Picked up Crane lift'));
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(live()).toHaveTextContent('Crane lift is over position 2 of 3.'));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(live()).toHaveTextContent(
        'Moving Crane lift was cancelled: it stays at position 3 of 3.',
      ),
    );
    expect(await reportOrder()).toEqual(['Pier 3 formwork', 'Deck rebar', 'Crane lift']);
  });

  it('shows a preview of the cover and the first photo pages in the chosen layout', async () => {
    const { user } = renderCreator();
    await inTheReport(3);
    const preview = screen.getByRole('region', { name: 'Preview' });
    const cover = within(preview).getByRole('group', { name: 'Cover' });
    expect(cover).toHaveTextContent('Okafor Build Ltd');
    expect(cover).toHaveTextContent('Daily site report – 18 Nov 2026');
    expect(cover).toHaveTextContent('ProjectHarbour Bridge');
    expect(cover).toHaveTextContent('LocationSydney, Australia');
    expect(cover).toHaveTextContent('AuthorMia Mason');
    expect(cover).toHaveTextContent('Period18 Nov 2026');
    expect(cover).toHaveTextContent('Photos3 photos');
    // Numbered as the PDF will be: cover, 2 photo pages of 2, the photo index.
    expect(cover).toHaveTextContent('Page 1 of 4');
    const pageTwo = within(preview).getByRole('group', { name: 'Page 2' });
    expect(pageTwo).toHaveTextContent('Page 2 of 4');
    expect(pageTwo).toHaveTextContent('#1 Deck rebar');
    expect(pageTwo).toHaveTextContent('Deck rebar: as found.');
    expect(pageTwo).toHaveTextContent('Taken by Zoë Müller');
    // Where the PDF prints the place: the coordinates known now, the place's name later.
    expect(pageTwo).toHaveTextContent('Location 48.13743, 11.57549 · place added when generated');
    expect(pageTwo).toHaveTextContent('Location no location');
    expect(pageTwo).toHaveTextContent('SHA-256 added when generated');
    // Each caption right under its photo, as the PDF draws it: the photo keeps its shape (never
    // stretched to fill the cell, which left the caption at the cell's foot).
    const photoOne = pageTwo.querySelector<HTMLElement>('[data-preview-photo]')!;
    expect(getComputedStyle(photoOne).flexGrow).toBe('0');
    expect(getComputedStyle(photoOne).aspectRatio).toMatch(/^1600 ?\/ ?1200$/);
    expect(photoOne.nextElementSibling).toHaveTextContent(/^#1 Deck rebarDeck rebar: as found\./);
    expect(within(preview).getByRole('group', { name: 'Page 3' })).toHaveTextContent(
      'Pier 3 formwork: as found.',
    );
    await user.click(screen.getByRole('radio', { name: '1 photo per page' }));
    expect(
      within(preview)
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual(['Cover', 'Page 2', 'Page 3']);
    expect(cover).toHaveTextContent('Page 1 of 5');
    expect(within(preview).getByText(/and 1 more photo page/)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '4 photos per page' }));
    expect(within(preview).getAllByRole('group')).toHaveLength(2);
    expect(cover).toHaveTextContent('Page 1 of 3');
    // An intro that may run on to a second cover page: the count is not known until the PDF is made.
    await user.click(screen.getByRole('textbox', { name: 'Intro' }));
    await user.paste('Line of the day.\n'.repeat(20));
    expect(cover).toHaveTextContent(/Page 1$/);
    expect(within(preview).getByText(/moves the page numbers on/)).toBeInTheDocument();

    // On a phone the preview comes before GENERATE REPORT, in the page's order too.
    const generate = screen.getByRole('button', { name: 'Generate report' });
    expect(
      preview.compareDocumentPosition(generate) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('says what to fix (title, days, photos) and sends nothing until it is fixed', async () => {
    const { user, server } = renderCreator();
    await inTheReport(3);
    await user.clear(screen.getByRole('textbox', { name: 'Title' }));
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-19' } });
    await user.click(screen.getByRole('button', { name: 'Generate report' }));

    const summary = (await screen.findByText('The report cannot be generated yet')).closest(
      '[role="alert"]',
    ) as HTMLElement;
    expect(
      within(summary)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Give the report a title.',
      'The last day must be on or after the first day.',
      'Pick at least one photo for the report.',
    ]);
    // Each field says its own, too.
    expect(screen.getAllByText('Give the report a title.')).toHaveLength(2);
    expect(screen.getAllByText('The last day must be on or after the first day.')).toHaveLength(2);
    // The first field to fix has the focus.
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveFocus();
    expect(server.callsTo('POST /api/report')).toHaveLength(0);

    await user.click(screen.getByRole('textbox', { name: 'Title' }));
    await user.paste('Handover');
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-11-18' } });
    await inTheReport(3);
    expect(screen.queryByText('Give the report a title.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(server.callsTo('POST /api/report')).toHaveLength(1));
  });

  it('shows the server’s refusal and keeps everything entered; the button works again', async () => {
    const { user, server, router } = renderCreator({
      'POST /api/report': jsonError(400, 'validation', 'Photo 13 is not in this project.'),
    });
    await inTheReport(3);
    await user.click(screen.getByRole('button', { name: 'Move Crane lift down' }));
    await user.click(screen.getByRole('textbox', { name: 'Intro' }));
    await user.paste('Windy.');
    await user.click(screen.getByRole('button', { name: 'Generate report' }));

    expect(await screen.findByText(/Photo 13 is not in this project\./)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reports/create');
    expect(await reportOrder()).toEqual(['Deck rebar', 'Pier 3 formwork', 'Crane lift']);
    expect(screen.getByRole('textbox', { name: 'Intro' })).toHaveValue('Windy.');
    const generate = screen.getByRole('button', { name: 'Generate report' });
    expect(generate).toBeEnabled();

    server.set(
      'POST /api/report',
      jsonError(409, 'project_archived', 'This project is archived; restore it first.'),
    );
    await user.click(generate);
    expect(
      await screen.findByText(/This project is archived; restore it first\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Intro' })).toHaveValue('Windy.');
  });

  it('disables GENERATE REPORT while the report is being sent', async () => {
    let answer: (() => void) | undefined;
    const { user, server } = renderCreator({
      'POST /api/report': (request) =>
        new Promise((resolve) => {
          answer = () =>
            resolve({ status: 202, body: reportAnswer(request.body as CreateReportRequest) });
        }),
    });
    await inTheReport(3);
    await user.click(screen.getByRole('button', { name: 'Generate report' }));
    await waitFor(() => expect(answer).toBeDefined());
    expect(screen.getByRole('button', { name: /Generate report/ })).toBeDisabled();
    // A submit of the form (not the button) sends nothing: still one report.
    fireEvent.submit(screen.getByRole('form', { name: 'New report' }));
    expect(server.callsTo('POST /api/report')).toHaveLength(1);
    answer!();
  });

  it('offline, says generating needs a connection and keeps the form', async () => {
    const { user } = renderCreator();
    await inTheReport(3);
    await user.click(screen.getByRole('textbox', { name: 'Intro' }));
    await user.paste('Rain.');
    setBrowserOnline(false);
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(screen.getByText(/Generating a report needs a connection/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Generate report' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Intro' })).toHaveValue('Rain.');
    setBrowserOnline(true);
    expect(screen.getByRole('button', { name: 'Generate report' })).toBeEnabled();
  });

  it('explains that an archived project is read-only, with no form', async () => {
    const { server } = renderCreator(
      {},
      {
        project: {
          ...project,
          archivedAt: at(10, 9),
          archivedBy: mia,
        },
      },
    );
    expect(await screen.findByText('This project is archived')).toBeInTheDocument();
    expect(screen.getByText(/no new report can be made for it/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate report' })).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/upload/project/31/latest')).toHaveLength(0);
  });

  it('says so when the project has no photos in the range, and offers them all', async () => {
    const { user } = renderCreator({
      'GET /api/upload/project/31/latest': { body: [yesterday, lastWeek] },
    });
    expect(await screen.findByText('No photos uploaded on 18 Nov 2026.')).toBeInTheDocument();
    expect(screen.getByText('Nothing to show for these days.')).toBeInTheDocument();
    expect(
      screen.getByText('No photo yet: tick the photos above that the report should show.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all photos' }));
    await user.click(screen.getByRole('checkbox', { name: 'Bearing pads' }));
    expect(await reportOrder()).toEqual(['Bearing pads']);
  });

  it('shows the server message with a retry when the photos cannot be loaded', async () => {
    const { server, user } = renderCreator({
      'GET /api/upload/project/31/latest': jsonError(500, 'internal', 'The server failed.'),
    });
    expect(await screen.findByText('Could not load the project’s photos')).toBeInTheDocument();
    server.set('GET /api/upload/project/31/latest', { body: feed });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await inTheReport(3);
  });
});

describe('/reports/create without a usable project', () => {
  it('says so when the project does not exist', async () => {
    renderApp('/reports/create?project=404', {
      signedInAs: member,
      api: { 'GET /api/project/id/404': jsonError(404, 'not_found', 'Project not found.') },
    });
    expect(await screen.findByText('Project not found')).toBeInTheDocument();
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'All projects' }),
    ).toHaveAttribute('href', '/projects/all');
  });

  it('shows the server message with a retry when the project cannot be loaded', async () => {
    const { server, user } = renderApp('/reports/create?project=31', {
      signedInAs: member,
      api: {
        'GET /api/project/id/31': jsonError(403, 'forbidden', 'You may not see this project.'),
        'GET /api/upload/project/31/latest': { body: feed },
        'GET /api/workspace': { body: { teamName: 'Okafor Build Ltd' } },
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You may not see this project.');
    server.set('GET /api/project/id/31', { body: project });
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Harbour Bridge' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Generate report' })).toBeInTheDocument();
  });

  it('without a project asks the user to start from one, and calls nothing', async () => {
    const { server } = renderApp('/reports/create', { signedInAs: member });
    expect(await screen.findByText('No project chosen')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.startsWith('/api/project'))).toEqual([]);
    expect(server.callsTo('GET /api/workspace')).toEqual([]);
  });

  it('refuses a malformed project id without calling the API', async () => {
    const { server } = renderApp('/reports/create?project=abc', { signedInAs: member });
    expect(await screen.findByText('This link does not name a project.')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.startsWith('/api/project'))).toEqual([]);
  });
});
