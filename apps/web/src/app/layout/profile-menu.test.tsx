import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { member, renderApp } from '@/test/render-app';
import { COLOR_MODE_KEY } from '../color-mode';

/** The system's colour scheme as `prefers-color-scheme` reports it (jsdom has no matchMedia). */
function systemPrefers(scheme: 'dark' | 'light') {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(prefers-color-scheme: dark)' && scheme === 'dark',
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/** The page's background as CssBaseline paints it from the theme in use. */
const pageBackground = () => getComputedStyle(document.body).backgroundColor;
const LIGHT_PAGE = 'rgb(245, 245, 244)';
const DARK_PAGE = 'rgb(12, 10, 9)';

async function openThemeMenu(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: /^Profile menu/ }));
  return screen.findByRole('menu', { name: 'Profile menu' });
}

const checkedTheme = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitemradio')
    .filter((item) => item.getAttribute('aria-checked') === 'true')
    .map((item) => item.textContent);

describe('colour theme', () => {
  it('follows the system when it prefers dark', async () => {
    systemPrefers('dark');
    renderApp('/profile', { signedInAs: member });
    await screen.findByRole('banner');
    expect(pageBackground()).toBe(DARK_PAGE);
  });

  it('is light by default where the system says nothing', async () => {
    renderApp('/profile', { signedInAs: member });
    await screen.findByRole('banner');
    expect(pageBackground()).toBe(LIGHT_PAGE);
  });

  it('offers System, Light and Dark in the profile menu, and remembers the pick on this device', async () => {
    systemPrefers('light');
    const { user, unmount } = renderApp('/profile', { signedInAs: member });
    let menu = await openThemeMenu(user);
    expect(
      within(menu)
        .getAllByRole('menuitemradio')
        .map((item) => item.textContent),
    ).toEqual(['Theme: System', 'Theme: Light', 'Theme: Dark']);
    expect(checkedTheme(menu)).toEqual(['Theme: System']);

    await user.click(within(menu).getByRole('menuitemradio', { name: 'Theme: Dark' }));
    expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
    expect(pageBackground()).toBe(DARK_PAGE);
    // The menu closes and gives the focus back to its button.
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Profile menu/ })).toHaveFocus();

    // A new start (as after a reload) begins dark, before anything is clicked.
    unmount();
    const again = renderApp('/profile', { signedInAs: member });
    await screen.findByRole('banner');
    expect(pageBackground()).toBe(DARK_PAGE);
    menu = await openThemeMenu(again.user);
    expect(checkedTheme(menu)).toEqual(['Theme: Dark']);

    // System forgets the pick and follows the system again.
    await again.user.click(within(menu).getByRole('menuitemradio', { name: 'Theme: System' }));
    expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBeNull();
    expect(pageBackground()).toBe(LIGHT_PAGE);
  });

  it('a pick of Light wins over a system that prefers dark', async () => {
    systemPrefers('dark');
    const { user } = renderApp('/profile', { signedInAs: member });
    const menu = await openThemeMenu(user);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Theme: Light' }));
    expect(window.localStorage.getItem(COLOR_MODE_KEY)).toBe('light');
    expect(pageBackground()).toBe(LIGHT_PAGE);
  });
});
