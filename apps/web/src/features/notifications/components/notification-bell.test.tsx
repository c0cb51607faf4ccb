import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockRequest } from '@/test/mock-api';
import { setBrowserOnline } from '@/test/online';
import { member, renderApp } from '@/test/render-app';
import { UNREAD_POLL_MS } from '../api/get-unread-count';
import { badgeText, bellLabel } from './notification-bell';

/** A server whose count changes when told, answering 304 to its current ETag. */
function unreadServer(start: number) {
  let count = start;
  let version = 1;
  return {
    set(next: number) {
      count = next;
      version += 1;
    },
    handler: (request: MockRequest) => {
      const etag = `"v${version}"`;
      return request.headers.get('if-none-match') === etag
        ? { status: 304, headers: { ETag: etag } }
        : { body: { count }, headers: { ETag: etag } };
    },
  };
}

const bell = () => within(screen.getByRole('banner')).getByRole('link', { name: /^Notifications/ });

afterEach(() => {
  vi.useRealTimers();
});

describe('the bell', () => {
  it('names and shows the unread count, 99+ past 99, nothing when all is read', () => {
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(0)).toBe('Notifications');
    expect([badgeText(7), badgeText(99), badgeText(100), badgeText(5000)]).toEqual([
      '7',
      '99',
      '99+',
      '99+',
    ]);
  });

  it('shows the count from the server on every page, and links to /notifications', async () => {
    const server = unreadServer(150);
    renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications/unread': server.handler },
    });
    const link = await screen.findByRole('link', { name: 'Notifications, 150 unread' });
    expect(link).toHaveAttribute('href', '/notifications');
    expect(within(link).getByTestId('unread-badge')).toHaveTextContent('99+');
  });

  it('polls with the last ETag: a 304 keeps the count, a change shows without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = unreadServer(3);
    const app = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications/unread': server.handler },
    });
    await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    const polls = () => app.server.callsTo('GET /api/notifications/unread');
    expect(polls()).toHaveLength(1);
    expect(polls()[0]?.headers.get('if-none-match')).toBeNull();
    expect(polls()[0]?.headers.get('authorization')).toBe('Bearer token-of-2');

    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));
    await waitFor(() => expect(polls()).toHaveLength(2));
    expect(polls()[1]?.headers.get('if-none-match')).toBe('"v1"');
    expect(bell()).toHaveAccessibleName('Notifications, 3 unread');

    server.set(5);
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications, 5 unread'));
    expect(polls()[2]?.headers.get('if-none-match')).toBe('"v1"');

    server.set(0);
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications'));
    expect(within(bell()).queryByTestId('unread-badge')).not.toBeInTheDocument();
  });

  it('asks at once when the window gets the focus back', async () => {
    const server = unreadServer(1);
    const app = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications/unread': server.handler },
    });
    await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    server.set(2);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    expect(app.server.callsTo('GET /api/notifications/unread')).toHaveLength(2);
  });

  it('stops polling offline and in a hidden tab, and asks at once when back', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = unreadServer(1);
    const app = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications/unread': server.handler },
    });
    await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    const polls = () => app.server.callsTo('GET /api/notifications/unread').length;

    setBrowserOnline(false);
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 4));
    expect(polls()).toBe(1);
    server.set(4);
    setBrowserOnline(true);
    await screen.findByRole('link', { name: 'Notifications, 4 unread' });
    const afterReconnect = polls();

    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS * 4));
    expect(polls()).toBe(afterReconnect);
    server.set(6);
    visibility.mockReturnValue('visible');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await screen.findByRole('link', { name: 'Notifications, 6 unread' });
  });

  it('keeps the last count when a poll fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = unreadServer(2);
    const app = renderApp('/reports', {
      signedInAs: member,
      api: { 'GET /api/notifications/unread': server.handler },
    });
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    app.server.set('GET /api/notifications/unread', {
      status: 503,
      body: { message: 'Down.', code: 'unavailable', requestId: 'r' },
    });
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_POLL_MS));
    await waitFor(() =>
      expect(app.server.callsTo('GET /api/notifications/unread').length).toBeGreaterThan(1),
    );
    expect(bell()).toHaveAccessibleName('Notifications, 2 unread');
  });
});
