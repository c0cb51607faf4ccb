import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';

describe('/search', () => {
  it('shows the placeholder sections Projects, Uploads and Reports', async () => {
    renderApp('/search', { signedInAs: member });
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    for (const name of ['Projects', 'Uploads', 'Reports']) {
      expect(screen.getByRole('region', { name })).toHaveTextContent('Under construction');
    }
    expect(screen.getByText(/type in the search box/i)).toBeInTheDocument();
    expect(document.title).toBe('Search · Sitelog');
  });

  it('shows the query typed in the top bar search box', async () => {
    const { user } = renderApp('/reports', { signedInAs: member });
    await user.type(await screen.findByRole('searchbox', { name: 'Search' }), 'north wing{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument();
    expect(screen.getByText(/Results for/)).toHaveTextContent('Results for “north wing”');
    expect(document.title).toBe('Search: north wing · Sitelog');
  });
});
