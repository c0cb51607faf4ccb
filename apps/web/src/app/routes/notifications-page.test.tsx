import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';

describe('/notifications', () => {
  it('is an Under construction placeholder naming what will be there', async () => {
    renderApp('/notifications', { signedInAs: member });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Under construction')).toBeInTheDocument();
    expect(
      screen.getByText(/comments to your uploads, new reports and new uploads/i),
    ).toBeInTheDocument();
    expect(document.title).toBe('Notifications · Sitelog');
  });

  it('opens from the top bar bell', async () => {
    const { user, router } = renderApp('/reports', { signedInAs: member });
    const banner = await screen.findByRole('banner');
    await user.click(within(banner).getByRole('link', { name: 'Notifications' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Notifications' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notifications');
  });
});
