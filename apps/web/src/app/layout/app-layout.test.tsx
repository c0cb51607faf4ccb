import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, member, renderApp } from '@/test/render-app';

async function openMenu(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Open menu' }));
  // The phone drawer's code loads on this first opening: wait for the drawer itself, so the
  // docked menu (the same list, hidden behind it once it is open) is not taken for it.
  const drawer = await screen.findByLabelText('Menu');
  return within(drawer).getByRole('navigation', { name: 'Main menu' });
}

const memberMenu = [
  ['New project', '/projects/new'],
  ['My projects', '/projects'],
  ['All projects', '/projects/all'],
  ['Reports', '/reports'],
  ['Photos', '/uploads/latest'],
  ['Team', '/teams'],
  ['Archive', '/projects/archived'],
  ['My profile', '/profile'],
  ['Events', '/events'],
  ['Search', '/search'],
] as const;

describe('layout', () => {
  it('lists the side menu of the spec, without Admin for members', async () => {
    const { user } = renderApp('/', { signedInAs: member });
    const menu = await openMenu(user);
    const links = within(menu).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual(memberMenu);
    expect(within(menu).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('shows Admin in the side menu for admins', async () => {
    const { user } = renderApp('/', { signedInAs: admin });
    const menu = await openMenu(user);
    expect(within(menu).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
  });

  it('highlights the current page in the menu', async () => {
    const { user } = renderApp('/profile', { signedInAs: member });
    const menu = await openMenu(user);
    const current = within(menu).getByRole('link', { current: 'page' });
    expect(current).toHaveTextContent('My profile');
    expect(current).toHaveClass('Mui-selected');
    expect(within(menu).getByRole('link', { name: 'My projects' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('closes the phone menu after choosing a page', async () => {
    const { user, router } = renderApp('/', { signedInAs: admin });
    const menu = await openMenu(user);
    await user.click(within(menu).getByRole('link', { name: 'Admin' }));
    expect(await screen.findByRole('heading', { name: 'Users management' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    // Only the permanent (desktop) menu is left once the phone drawer has closed.
    await waitFor(() =>
      expect(screen.getAllByRole('navigation', { name: 'Main menu', hidden: true })).toHaveLength(
        1,
      ),
    );
  });

  it('search box: Enter opens /search?q=… and clears the text', async () => {
    const { user, router } = renderApp('/', { signedInAs: member });
    const box = await screen.findByRole('combobox', { name: 'Search' });
    await user.type(box, 'north wing{Enter}');
    expect(router.state.location.pathname).toBe('/search');
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('north wing');
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveValue('');
  });

  it('search box: the Search button does the same', async () => {
    const { user, router } = renderApp('/', { signedInAs: member });
    await user.type(await screen.findByRole('combobox', { name: 'Search' }), 'crane');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/search?q=crane',
    );
    expect(screen.getByRole('combobox', { name: 'Search' })).toHaveValue('');
  });

  it('top bar links: logo Home, UPLOAD, Notifications and the profile preview', async () => {
    const { user } = renderApp('/profile', { signedInAs: member });
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Sitelog' })).toHaveAttribute('href', '/');
    expect(within(banner).getByRole('link', { name: /upload/i })).toHaveAttribute(
      'href',
      '/uploader/choose',
    );
    expect(within(banner).getByRole('link', { name: 'Notifications' })).toHaveAttribute(
      'href',
      '/notifications',
    );
    // The profile preview opens the profile menu, whose first item is My profile.
    const preview = within(banner).getByRole('button', { name: 'Profile menu (Mia Mason)' });
    expect(preview).toHaveAttribute('aria-haspopup', 'menu');
    expect(preview).toHaveAttribute('aria-expanded', 'false');
    await user.click(preview);
    const menu = await screen.findByRole('menu', { name: 'Profile menu' });
    expect(preview).toHaveAttribute('aria-expanded', 'true');
    const profile = within(menu).getByRole('menuitem', { name: /my profile/i });
    expect(profile).toHaveAttribute('href', '/profile');
    // The whole name, which the top bar cuts on narrow screens.
    expect(profile).toHaveTextContent('Mia Mason');
  });

  it('Home shows the Bookmarks section, then Latest uploads', async () => {
    renderApp('/', { signedInAs: member });
    const bookmarks = await screen.findByRole('region', { name: 'Bookmarks' });
    const uploads = screen.getByRole('region', { name: 'Latest uploads' });
    // The sections' content (tiles, empty states) is tested in their own features.
    expect(
      bookmarks.compareDocumentPosition(uploads) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(document.title).toBe('Home · Sitelog');
  });
});
