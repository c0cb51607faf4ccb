// The photo page's comments (issue 15): the thread under the photo, writing with @ mentions,
// editing and deleting, as a member and an admin, against a mocked API.
import type { Comment, CommentPage, SessionUser } from '@sitelog/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonError, type MockHandler, type MockRequest, type MockRoutes } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { admin, member, renderApp } from '@/test/render-app';
import { fixTheClock, makeUpload } from '@/features/uploads/test/upload-fixtures';

fixTheClock();

const NOW = Date.now();
const minutesAgo = (n: number) => new Date(NOW - n * 60_000).toISOString();

const mia = { id: member.id, firstname: member.firstname, lastname: member.lastname };
const zoe = { id: 5, firstname: 'Zoë', lastname: 'Müller' };
const dan = { id: 9, firstname: 'Dan', lastname: 'Gone' };

function makeComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 1,
    uploadId: 7,
    author: { ...zoe, active: true },
    body: 'Crack at left.',
    createdAt: minutesAgo(5),
    editedAt: null,
    mentions: [],
    canEdit: false,
    canDelete: false,
    ...overrides,
  };
}

const page = (comments: Comment[], next: number | null = null, count = comments.length) => ({
  body: { comments, count, next } satisfies CommentPage,
});

const photo = makeUpload({ id: 7, name: 'North wall rebar' });

/** The photo page of upload 7 with its thread answered by `thread`. */
function renderThread(
  thread: MockHandler,
  { signedInAs = member, api = {} }: { signedInAs?: SessionUser; api?: MockRoutes } = {},
) {
  return renderApp('/upload/7', {
    signedInAs,
    api: {
      'GET /api/upload/full/7': { body: photo },
      'GET /api/upload/7/comments': thread,
      ...api,
    },
  });
}

const commentsRegion = () => screen.findByRole('region', { name: 'Comments' });

describe('the comment thread', () => {
  it('shows each comment with its author, time, edit mark, text and mentions', async () => {
    renderThread(
      page([
        makeComment({
          id: 1,
          author: { ...dan, active: false },
          body: 'Line one\nline two',
          createdAt: minutesAgo(90),
        }),
        makeComment({
          id: 2,
          author: { ...mia, active: true },
          body: 'Ask @zoe muller or @Nobody Here.',
          mentions: [{ ...zoe, active: true }],
          editedAt: minutesAgo(1),
          canEdit: true,
          canDelete: true,
        }),
      ]),
    );
    const region = await commentsRegion();
    const list = await within(region).findByRole('list', { name: '2 comments' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'Dan Gone' })).toHaveAttribute(
      'href',
      '/profile/9',
    );
    expect(within(first!).getByText('(deactivated)')).toBeInTheDocument();
    const time = within(first!).getByText('1 hour ago');
    expect(time.tagName).toBe('TIME');
    expect(time).toHaveAttribute('title', expect.stringMatching(/\d{4}/));
    // Line breaks are kept as typed (pre-wrap), not turned into markup.
    const body = first!.querySelector('[data-comment-body]');
    expect(body?.textContent).toBe('Line one\nline two');
    expect(body?.querySelector('br')).toBeNull();
    expect(within(first!).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();

    expect(within(second!).getByText('· edited')).toBeInTheDocument();
    const mention = within(second!).getByRole('link', { name: '@zoe muller' });
    expect(mention).toHaveAttribute('href', '/profile/5');
    expect(within(second!).queryByRole('link', { name: /Nobody/ })).not.toBeInTheDocument();
    expect(within(second!).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(second!).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(within(region).queryByText('Under construction')).not.toBeInTheDocument();
  });

  it('links http(s) addresses safely and keeps everything else text', async () => {
    const body =
      'Spec: https://example.com/spec?a=1. Bad: javascript:alert(1) <img src=x onerror=alert(1)> <b>b</b>';
    const { container } = renderThread(page([makeComment({ body })]));
    const link = await screen.findByRole('link', { name: /https:\/\/example\.com\/spec\?a=1/ });
    expect(link).toHaveAttribute('href', 'https://example.com/spec?a=1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText(/javascript:alert\(1\)/)).toBeInTheDocument();
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(container.querySelector('[data-comment-body] img')).toBeNull();
    expect(container.querySelector('[data-comment-body] b')).toBeNull();
    // The link says, to screen readers only, that it opens a new tab.
    expect(
      container
        .querySelector('[data-comment-body]')
        ?.textContent?.replace(' (opens in a new tab)', ''),
    ).toBe(body);
  });

  it('says when there are no comments yet', async () => {
    renderThread(page([]));
    expect(await screen.findByText(/No comments yet/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Comment' })).toBeInTheDocument();
  });

  it('shows a skeleton while loading, and an error with a retry that works', async () => {
    let calls = 0;
    const { user } = renderThread(() => {
      calls += 1;
      return calls === 1
        ? jsonError(429, 'rate_limited', 'Too many requests. Try again in a minute.')
        : page([makeComment()]);
    });
    expect(await screen.findByRole('status', { name: 'Loading comments…' })).toBeInTheDocument();
    expect(await screen.findByText('The comments could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Crack at left.')).toBeInTheDocument();
  });

  it('loads more comments on request, after the last one loaded', async () => {
    const { user, server } = renderThread((request: MockRequest) =>
      new URL(request.url, 'http://x').searchParams.get('after') === '1'
        ? page([makeComment({ id: 2, body: 'Second' })], null, 2)
        : page([makeComment({ id: 1, body: 'First' })], 1, 2),
    );
    await user.click(await screen.findByRole('button', { name: 'Show 1 more comment' }));
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.getByText('First')).toBeInTheDocument();
    expect(server.callsTo('GET /api/upload/7/comments').map((c) => c.url)).toEqual([
      '/api/upload/7/comments',
      '/api/upload/7/comments?after=1',
    ]);
    expect(screen.queryByRole('button', { name: /more comment/ })).not.toBeInTheDocument();
  });

  it('is read-only in an archived project', async () => {
    renderApp('/upload/7', {
      signedInAs: member,
      api: {
        'GET /api/upload/full/7': {
          body: { ...photo, project: { ...photo.project, archived: true } },
        },
        'GET /api/upload/7/comments': page([makeComment()]),
      },
    });
    expect(await screen.findByText('Crack at left.')).toBeInTheDocument();
    expect(screen.getByText('This project is archived: its comments are read-only.')).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Comment' })).not.toBeInTheDocument();
  });
});

describe('links to the thread', () => {
  it('scrolls to the comments once they are drawn when the address ends in #comments', async () => {
    const scrolled: Element[] = [];
    // jsdom lays nothing out and has no scrollIntoView: record who asks for it.
    const original = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollIntoView');
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: Element) {
        scrolled.push(this);
      },
    });
    try {
      renderApp('/upload/7#comments', {
        signedInAs: member,
        api: {
          'GET /api/upload/full/7': { body: photo },
          'GET /api/upload/7/comments': page([makeComment()]),
        },
      });
      expect(await screen.findByText('Crack at left.')).toBeInTheDocument();
      await waitFor(() => expect(scrolled.map((e) => e.id)).toEqual(['comments']));
    } finally {
      if (original) Object.defineProperty(Element.prototype, 'scrollIntoView', original);
      else delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('names the count in the viewer’s info panel, linking to the thread', async () => {
    const { user } = renderThread(page([makeComment()]), {
      api: { 'GET /api/upload/full/7': { body: { ...photo, commentsCount: 3 } } },
    });
    await user.click(
      await screen.findByRole('button', { name: 'View North wall rebar full screen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Photo viewer' });
    await user.click(within(dialog).getByRole('button', { name: 'Show photo info' }));
    const info = within(dialog).getByRole('complementary', { name: 'Photo info' });
    expect(within(info).getByRole('link', { name: '3 comments' })).toHaveAttribute(
      'href',
      '/upload/7#comments',
    );
  });
});

describe('writing a comment', () => {
  it('sends it, then empties the field and shows it in the thread', async () => {
    let stored: Comment[] = [];
    const { user, server } = renderThread(() => page(stored), {
      api: {
        'POST /api/upload/7/comments': (request) => {
          const created = makeComment({
            id: 3,
            author: { ...mia, active: true },
            body: (request.body as { body: string }).body.trim(),
            canEdit: true,
            canDelete: true,
          });
          stored = [created];
          return { status: 201, body: created };
        },
      },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(field, 'Looks good{Enter}to me');
    expect(field).toHaveValue('Looks good\nto me');
    await user.click(send);
    expect(server.callsTo('POST /api/upload/7/comments')[0]?.body).toEqual({
      body: 'Looks good\nto me',
    });
    await waitFor(() => expect(field).toHaveValue(''));
    expect(screen.getByText(/Looks good/).textContent).toBe('Looks good\nto me');
    // The photo's count (its tiles) is refreshed too.
    await waitFor(() => expect(server.callsTo('GET /api/upload/full/7')).toHaveLength(2));
  });

  it('sends with Ctrl+Enter', async () => {
    const { user, server } = renderThread(page([]), {
      api: {
        'POST /api/upload/7/comments': { status: 201, body: makeComment({ id: 4, body: 'Quick' }) },
      },
    });
    await user.type(await screen.findByRole('combobox', { name: 'Comment' }), 'Quick');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(server.callsTo('POST /api/upload/7/comments')).toHaveLength(1));
  });

  it('keeps the text and shows the server’s message when sending fails', async () => {
    const { user } = renderThread(page([]), {
      api: {
        'POST /api/upload/7/comments': jsonError(
          409,
          'project_archived',
          'This project is archived, so its comments are read-only.',
        ),
      },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.type(field, 'Please keep me');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This project is archived, so its comments are read-only. Your comment is still here.',
    );
    expect(field).toHaveValue('Please keep me');
  });

  it('counts the characters near the limit and refuses to send past it', async () => {
    const { user } = renderThread(page([]));
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.click(field);
    await user.paste('x'.repeat(1600));
    expect(screen.getByText('1,600 / 2,000')).toBeInTheDocument();
    await user.paste('x'.repeat(401));
    expect(screen.getByText('2,001 / 2,000')).toBeInTheDocument();
    expect(screen.getByText('A comment must be at most 2,000 characters.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('waits for the connection offline, keeping the text', async () => {
    const { user } = renderThread(page([]));
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.type(field, 'Later');
    setBrowserOnline(false);
    expect(
      await screen.findByText(
        'You are offline. Your comment stays here; send it when the connection returns.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    setBrowserOnline(true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(field).toHaveValue('Later');
  });
});

describe('mentioning with @', () => {
  const people = [
    { id: 5, firstname: 'Zoë', lastname: 'Müller' },
    { id: 6, firstname: 'Zola', lastname: 'Abel' },
  ];

  it('lists matching members and inserts one by keyboard', async () => {
    const { user, server } = renderThread(page([]), {
      api: { 'GET /api/user/mentionable': { body: people } },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    expect(field).toHaveAttribute('aria-expanded', 'false');
    await user.type(field, 'Ask @zo');
    const listbox = await screen.findByRole('listbox', { name: 'Members to mention' });
    expect(field).toHaveAttribute('aria-expanded', 'true');
    expect(field).toHaveAttribute('aria-controls', listbox.id);
    const options = within(listbox).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['ZMZoë Müller', 'ZAZola Abel']);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(server.callsTo('GET /api/user/mentionable').at(-1)?.url).toBe(
      '/api/user/mentionable?q=zo',
    );

    await user.keyboard('{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(field).toHaveValue('Ask @Zola Abel ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // The caret is after the name: typing goes on from there.
    await user.keyboard('please');
    expect(field).toHaveValue('Ask @Zola Abel please');
  });

  it('inserts with Tab, and closes with Escape leaving the text as typed', async () => {
    const { user } = renderThread(page([]), {
      api: { 'GET /api/user/mentionable': { body: people } },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.type(field, '@zo');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(field).toHaveValue('@zo');
    expect(field).toHaveFocus();
    // A new mention opens the list again; Tab takes the first member.
    await user.type(field, ' and @z');
    await screen.findByRole('listbox');
    await user.keyboard('{Tab}');
    expect(field).toHaveValue('@zo and @Zoë Müller ');
    expect(field).toHaveFocus();
  });

  it('sends the member picked from two with the same name, while the text names them', async () => {
    const twins = [
      { id: 21, firstname: 'Sam', lastname: 'Twofold' },
      { id: 22, firstname: 'Sam', lastname: 'Twofold' },
    ];
    const { user, server } = renderThread(page([]), {
      api: {
        'GET /api/user/mentionable': { body: twins },
        'POST /api/upload/7/comments': { status: 201, body: makeComment({ id: 8 }) },
      },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.type(field, '@sa');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Enter}look');
    expect(field).toHaveValue('@Sam Twofold look');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(server.callsTo('POST /api/upload/7/comments')[0]?.body).toEqual({
      body: '@Sam Twofold look',
      mentions: [22],
    });
    await waitFor(() => expect(field).toHaveValue(''));

    // A pick whose name left the text is not sent.
    await user.type(field, '@sa');
    await screen.findByRole('listbox');
    await user.keyboard('{Enter}');
    await user.clear(field);
    await user.type(field, 'Never mind');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(server.callsTo('POST /api/upload/7/comments')).toHaveLength(2));
    expect(server.callsTo('POST /api/upload/7/comments')[1]?.body).toEqual({
      body: 'Never mind',
    });
  });

  it('does not open for an email address, and Enter is a new line without a list', async () => {
    const { user, server } = renderThread(page([]), {
      api: { 'GET /api/user/mentionable': { body: people } },
    });
    const field = await screen.findByRole('combobox', { name: 'Comment' });
    await user.type(field, 'mail zoe@zo');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(server.callsTo('GET /api/user/mentionable')).toHaveLength(0);
    await user.keyboard('{Enter}x');
    expect(field).toHaveValue('mail zoe@zo\nx');
  });
});

describe('editing and deleting', () => {
  const own = makeComment({
    id: 2,
    author: { ...mia, active: true },
    body: 'Frist draft',
    canEdit: true,
    canDelete: true,
  });

  it('lets the author edit in place, and shows the saved text marked edited', async () => {
    const { user, server } = renderThread(page([own]), {
      api: {
        'PATCH /api/comment/2': (request) => ({
          body: {
            ...own,
            body: (request.body as { body: string }).body,
            editedAt: minutesAgo(0),
          },
        }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('combobox', { name: 'Edit comment' });
    expect(field).toHaveValue('Frist draft');
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'First draft');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('First draft')).toBeInTheDocument();
    expect(screen.getByText('· edited')).toBeInTheDocument();
    expect(server.callsTo('PATCH /api/comment/2')[0]?.body).toEqual({ body: 'First draft' });
    expect(screen.queryByRole('combobox', { name: 'Edit comment' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit' })).toHaveFocus());
  });

  it('keeps the members the comment names picked through an edit', async () => {
    const named = makeComment({
      ...own,
      body: '@Sam Twofold look',
      mentions: [{ id: 22, firstname: 'Sam', lastname: 'Twofold', active: true }],
    });
    const { user, server } = renderThread(page([named]), {
      api: { 'PATCH /api/comment/2': { body: { ...named, body: '@Sam Twofold look!' } } },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('combobox', { name: 'Edit comment' }), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PATCH /api/comment/2')).toHaveLength(1));
    expect(server.callsTo('PATCH /api/comment/2')[0]?.body).toEqual({
      body: '@Sam Twofold look!',
      mentions: [22],
    });
  });

  it('cancels an edit with Cancel or Escape, changing nothing', async () => {
    const { user, server } = renderThread(page([own]));
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.type(screen.getByRole('combobox', { name: 'Edit comment' }), ' more');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Frist draft')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('combobox', { name: 'Edit comment' })).not.toBeInTheDocument();
    expect(server.callsTo('PATCH /api/comment/2')).toHaveLength(0);
  });

  it('keeps the edit and says why when saving fails', async () => {
    const { user } = renderThread(page([own]), {
      api: {
        'PATCH /api/comment/2': jsonError(
          403,
          'forbidden',
          'Only the author of this comment can edit it.',
        ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const field = screen.getByRole('combobox', { name: 'Edit comment' });
    await user.type(field, '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only the author of this comment can edit it.',
    );
    expect(field).toHaveValue('Frist draft!');
  });

  it('deletes after a confirmation, and the comment leaves the thread', async () => {
    let stored = [own];
    const { user, server } = renderThread(() => page(stored), {
      api: {
        'DELETE /api/comment/2': () => {
          stored = [];
          return { status: 204 };
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this comment?' });
    expect(dialog).toHaveTextContent('Your comment will be removed from this photo for everyone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.callsTo('DELETE /api/comment/2')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const again = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/No comments yet/)).toBeInTheDocument();
    expect(server.callsTo('DELETE /api/comment/2')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Comment' })).toHaveFocus());
  });

  it('lets an admin delete someone else’s comment, naming whose it is', async () => {
    const { user } = renderThread(page([makeComment({ id: 8, canDelete: true })]), {
      signedInAs: admin,
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('dialog', { name: 'Delete this comment?' })).toHaveTextContent(
      'Zoë Müller’s comment will be removed',
    );
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
