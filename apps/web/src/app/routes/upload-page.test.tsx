import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { jsonError } from '@/test/mock-api';
import { admin, member, renderApp } from '@/test/render-app';
import { makeProject } from '@/features/projects/test/make-project';
import { daysAgo, fixTheClock, makeUpload } from '@/features/uploads/test/upload-fixtures';

// The viewer's time zone, set before the page's date formatters are made: UTC+05:30 all year, so
// a time shifted into it never looks like the camera's own.
const VIEWER_ZONE = vi.hoisted(() => {
  vi.stubEnv('TZ', 'Asia/Kolkata');
  return 'Asia/Kolkata';
});
afterAll(() => {
  vi.unstubAllEnvs();
});
fixTheClock();

/** How the page words a date and time, in the given zone (locale-independent expectations). */
const shownAs = (instant: number, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    instant,
  );

const byMember = makeUpload({
  id: 7,
  name: 'North wall rebar',
  description: 'Line one\n<b>not bold</b> <img src=x onerror=alert(1)>',
  createdAt: daysAgo(1),
  creator: { id: member.id, firstname: member.firstname, lastname: member.lastname },
  project: { id: 31, name: 'Harbour Bridge' },
  formatedWidth: 1200,
  formatedHeight: 1600,
  capturedAt: '2025-05-04T09:30:00',
  camera: 'Apple iPhone 15 Pro',
  latitude: 48.858844,
  longitude: 2.294351,
});

describe('/upload/{id}', () => {
  it('shows the photo with its name, date, creator, project and metadata', async () => {
    const { server } = renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'North wall rebar' }),
    ).toBeVisible();
    expect(server.callsTo('GET /api/upload/full/7')).toHaveLength(1);
    expect(document.title).toBe('North wall rebar · Sitelog');
    expect(screen.getByText('Uploaded yesterday')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mia Mason' })).toHaveAttribute('href', '/profile/2');
    expect(screen.getByRole('link', { name: 'Harbour Bridge' })).toHaveAttribute(
      'href',
      '/project/31',
    );

    const image = screen.getByRole('img', { name: 'North wall rebar' });
    expect(image).toHaveAttribute('src', '/media/formatted-7.jpg?sig=abc');
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '1600');

    expect(screen.getByText('Apple iPhone 15 Pro')).toBeInTheDocument();
    expect(screen.getByText('Taken')).toBeInTheDocument();
    const place = screen.getByRole('link', { name: '48.85884, 2.29435' });
    expect(place.getAttribute('href')).toContain('openstreetmap.org/?mlat=48.858844&mlon=2.294351');
    expect(screen.getByRole('link', { name: 'Download original' })).toHaveAttribute(
      'href',
      '/media/original-7.jpg?sig=abc',
    );
    expect(screen.getByRole('link', { name: 'Download original' })).toHaveAttribute('download');
    expect(screen.getByRole('heading', { name: 'Tags' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Comments' })).toBeInTheDocument();
    const tags = screen.getByRole('region', { name: 'Tags' });
    expect(within(tags).queryByText('Under construction')).not.toBeInTheDocument();
    expect(within(tags).getByText('No tags yet.')).toBeInTheDocument();
  });

  it('shows the description as plain text, never as HTML', async () => {
    const { container } = renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    const text = await screen.findByText(/<b>not bold<\/b>/);
    expect(text).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(container.querySelector('main b')).toBeNull();
    expect(container.querySelector('main img[src="x"]')).toBeNull();
  });

  it('shows EDIT to the creator only', async () => {
    renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/upload/7/edit',
    );
  });

  it('hides EDIT from members who did not create the upload', async () => {
    renderApp('/upload/7', {
      signedInAs: admin,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'North wall rebar' }),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('marks a photo of an archived project Archived, in the page and in the viewer, with no EDIT even for its creator', async () => {
    const archived = { ...byMember, project: { id: 31, name: 'Harbour Bridge', archived: true } };
    const { user } = renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: archived } },
    });
    const project = await screen.findByRole('link', { name: 'Harbour Bridge' });
    expect(project.parentElement).toHaveTextContent(/Harbour Bridge\s*Archived/);
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'View North wall rebar full screen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Photo viewer' });
    await user.click(within(dialog).getByRole('button', { name: 'Show photo info' }));
    const info = within(dialog).getByRole('complementary', { name: 'Photo info' });
    expect(
      within(info).getByRole('link', { name: 'Harbour Bridge' }).parentElement,
    ).toHaveTextContent(/in Harbour Bridge\s*Archived/);
  });

  it('does not mark a photo of an open project', async () => {
    renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    await screen.findByRole('link', { name: 'Edit' });
    expect(screen.queryByText('Archived')).not.toBeInTheDocument();
  });

  it('shows a capture time without a zone as the camera’s wall-clock time, unshifted', async () => {
    renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    // byMember was taken at 09:30 on the camera's clock, zone unknown: 09:30 it stays.
    const wallClock = shownAs(Date.UTC(2025, 4, 4, 9, 30), 'UTC');
    const taken = (await screen.findByText('Taken')).nextElementSibling;
    expect(taken).toHaveTextContent(wallClock);
    expect(taken).not.toHaveTextContent(shownAs(Date.UTC(2025, 4, 4, 9, 30), VIEWER_ZONE));
  });

  it('shows a capture time in UTC in the viewer’s time zone', async () => {
    renderApp('/upload/9', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/9': {
          body: makeUpload({ id: 9, capturedAt: '2025-05-04T09:30:00.000Z' }),
        },
      },
    });
    // 09:30 UTC is 15:00 in the viewer's zone (UTC+05:30).
    const taken = (await screen.findByText('Taken')).nextElementSibling;
    expect(taken).toHaveTextContent(shownAs(Date.UTC(2025, 4, 4, 9, 30), VIEWER_ZONE));
    expect(taken).toHaveTextContent(shownAs(Date.UTC(2025, 4, 4, 15, 0), 'UTC'));
    expect(taken).not.toHaveTextContent(shownAs(Date.UTC(2025, 4, 4, 9, 30), 'UTC'));
  });

  it('leaves out capture time, camera and place when the photo did not have them', async () => {
    renderApp('/upload/8', {
      signedInAs: member,
      api: { 'GET /api/upload/full/8': { body: makeUpload({ id: 8, createdAt: daysAgo(5) }) } },
    });
    expect(await screen.findByText('Uploaded 5 days ago')).toBeInTheDocument();
    expect(screen.queryByText('Taken')).not.toBeInTheDocument();
    expect(screen.queryByText('Camera')).not.toBeInTheDocument();
    expect(screen.queryByText('Place')).not.toBeInTheDocument();
  });

  it('opens the photo in the full-screen viewer, with its info, and closes it again', async () => {
    const { user } = renderApp('/upload/7', {
      signedInAs: member,
      api: { 'GET /api/upload/full/7': { body: byMember } },
    });
    await user.click(
      await screen.findByRole('button', { name: 'View North wall rebar full screen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Photo viewer' });
    // Which of the photo's sizes is drawn depends on the screen (jsdom has none): e2e checks it.
    expect(
      within(dialog).getByRole('img', { name: 'North wall rebar' }).getAttribute('src'),
    ).toMatch(/^\/media\/(formatted|preview)-7\./);
    // Phones (and jsdom, which matches no media query) open the panel on demand.
    await user.click(within(dialog).getByRole('button', { name: 'Show photo info' }));
    const info = within(dialog).getByRole('complementary', { name: 'Photo info' });
    expect(within(info).getByRole('heading', { name: 'North wall rebar' })).toBeInTheDocument();
    expect(within(info).getByText('Apple iPhone 15 Pro')).toBeInTheDocument();
    expect(within(info).getByRole('link', { name: 'Harbour Bridge' })).toHaveAttribute(
      'href',
      '/project/31',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('names the place next to the coordinates and flags a photo taken far from its site', async () => {
    renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: byMember },
        // The site 14 km north of where the photo was taken (FAR_FROM_SITE_KM is 2 by default).
        'GET /api/project/id/31': {
          body: makeProject({ id: 31, latitude: 48.858844 + 14 / 111.2, longitude: 2.294351 }),
        },
        'GET /api/places/nearest': {
          body: {
            place: {
              label: 'Paris, France',
              name: 'Paris',
              country: 'France',
              latitude: 48.85341,
              longitude: 2.3488,
            },
            distanceKm: 4.1,
          },
        },
      },
    });
    expect(await screen.findByText('4.1 km from Paris, France')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '48.85884, 2.29435' })).toHaveAttribute(
      'href',
      expect.stringContaining('openstreetmap.org'),
    );
    expect(await screen.findByText('Taken 14 km from the site')).toBeInTheDocument();
  });

  it('does not flag a photo taken at its site', async () => {
    const { server } = renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: byMember },
        'GET /api/project/id/31': {
          body: makeProject({ id: 31, latitude: 48.8589, longitude: 2.2944 }),
        },
      },
    });
    expect(await screen.findByRole('link', { name: '48.85884, 2.29435' })).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('GET /api/project/id/31')).toHaveLength(1));
    // The site is known once the project's answer is read: let it render, then look.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(document.querySelector('[data-far-from-site]')).toBeNull();
  });

  it('says so when the upload does not exist', async () => {
    renderApp('/upload/404', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/404': jsonError(404, 'not_found', 'The upload does not exist.'),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Photo not found' })).toBeInTheDocument();
    expect(document.title).toBe('Photo not found · Sitelog');
  });

  it('answers an id that is not a number without calling the server', async () => {
    const { server } = renderApp('/upload/abc', { signedInAs: member });
    expect(await screen.findByRole('heading', { name: 'Photo not found' })).toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.startsWith('/api/upload'))).toHaveLength(0);
  });

  it('shows a failed load with RETRY', async () => {
    let calls = 0;
    const { user } = renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': () => {
          calls += 1;
          return calls === 1
            ? jsonError(403, 'forbidden', 'You cannot see this upload.')
            : { body: byMember };
        },
      },
    });
    expect(await screen.findByText('You cannot see this upload.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'North wall rebar' }),
    ).toBeVisible();
  });
});

describe('/upload/{id} tags', () => {
  const tagged = makeUpload({
    ...byMember,
    tags: ['electrical', 'level 3', '<b>defect</b>'],
  });

  it('shows each tag as a chip opening the project filtered by it, as text', async () => {
    const { container } = renderApp('/upload/7', {
      signedInAs: admin,
      api: { 'GET /api/upload/full/7': { body: tagged } },
    });
    const list = await screen.findByRole('list', { name: 'Tags' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'electrical',
      'level 3',
      '<b>defect</b>',
    ]);
    expect(links[1]).toHaveAttribute('href', '/project/31?tag=level+3');
    expect(links[2]).toHaveAttribute('href', '/project/31?tag=%3Cb%3Edefect%3C%2Fb%3E');
    expect(container.querySelector('main b')).toBeNull();
    // Not the creator: no way to change them.
    expect(screen.queryByRole('button', { name: 'Edit tags' })).not.toBeInTheDocument();
  });

  it('lets the creator edit the tags: typed, normalised, merged, saved alone', async () => {
    let stored = tagged;
    const { server, user } = renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': () => ({ body: stored }),
        'GET /api/upload/tags': { body: [{ tag: 'concrete', count: 4 }] },
        'PATCH /api/upload/update/no-image/7': (request) => {
          const { upload } = request.body as { upload: { tags: string[] } };
          stored = { ...stored, tags: upload.tags };
          return { body: stored };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit tags' }));
    const field = screen.getByRole('combobox', { name: 'Tags' });
    expect(field).toHaveFocus();
    // Backspace on the empty field removes the last chip.
    await user.keyboard('{Backspace}');
    await user.type(field, '  Safety  First,ELECTRICAL{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save tags' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(1),
    );
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: { tags: ['electrical', 'level 3', 'safety first'] },
    });
    const list = await screen.findByRole('list', { name: 'Tags' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['electrical', 'level 3', 'safety first']);
    expect(screen.getByRole('button', { name: 'Edit tags' })).toHaveFocus();
  });

  it('does not save while the field holds a refused tag, and says so', async () => {
    const { server, user } = renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: byMember },
        'GET /api/upload/tags': { body: [] },
        'PATCH /api/upload/update/no-image/7': { body: byMember },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add tags' }));
    const field = screen.getByRole('combobox', { name: 'Tags' });
    await user.click(field);
    await user.paste(`roof, ${'y'.repeat(41)}`);
    await user.click(screen.getByRole('button', { name: 'Save tags' }));
    const tags = screen.getByRole('region', { name: 'Tags' });
    expect(await within(tags).findByRole('alert')).toHaveTextContent(
      `“${'y'.repeat(41)}” in the tag field is not a tag yet: fix it or clear it before saving.`,
    );
    expect(within(tags).getByText('A tag must be at most 40 characters.')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(0);
    // Cleared: the message goes and SAVE TAGS saves what is there.
    await user.clear(field);
    expect(within(tags).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save tags' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH /api/upload/update/no-image/7')).toHaveLength(1),
    );
    expect(server.callsTo('PATCH /api/upload/update/no-image/7')[0]?.body).toEqual({
      upload: { tags: ['roof'] },
    });
  });

  it("shows the server's refusal and keeps the tags being edited", async () => {
    const { user } = renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': { body: byMember },
        'PATCH /api/upload/update/no-image/7': jsonError(
          409,
          'project_archived',
          'This project is archived; its photos cannot be changed.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add tags' }));
    await user.type(screen.getByRole('combobox', { name: 'Tags' }), 'roof{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save tags' }));
    // In the Tags section: the page has other parts that may say something too (the comments).
    const tags = screen.getByRole('region', { name: 'Tags' });
    expect(await within(tags).findByRole('alert')).toHaveTextContent(
      'This project is archived; its photos cannot be changed.',
    );
    expect(screen.getByRole('button', { name: 'roof' })).toBeInTheDocument();
  });
});
