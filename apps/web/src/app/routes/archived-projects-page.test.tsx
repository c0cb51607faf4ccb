import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { member, renderApp } from '@/test/render-app';

describe('/projects/archived', () => {
  it('is an Under construction placeholder for archived projects', async () => {
    renderApp('/projects/archived', { signedInAs: member });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Archived projects' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Under construction')).toBeInTheDocument();
    expect(screen.getByText(/archived will be listed here/i)).toBeInTheDocument();
    expect(document.title).toBe('Archived projects · Sitelog');
  });
});
