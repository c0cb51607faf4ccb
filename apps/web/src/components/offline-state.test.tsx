import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setBrowserOnline } from '@/test/online';
import { LoadingState } from './loading-state';
import { OfflineFallback } from './offline-state';
import { ListSkeleton, TileGridSkeleton } from './skeletons';

describe('loading placeholders offline', () => {
  it('shows the placeholder while online', () => {
    render(<ListSkeleton label="Loading the team…" />);
    expect(screen.getByRole('status', { name: 'Loading the team…' })).toBeInTheDocument();
    expect(screen.queryByText('You are offline')).not.toBeInTheDocument();
  });

  it('says "You are offline" in place of a skeleton, keeping its size, and turns back', () => {
    setBrowserOnline(false);
    const { container } = render(<TileGridSkeleton label="Loading photos…" />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'You are offlineThis will load when the connection returns.',
    );
    // The skeleton stays underneath, hidden, so the space it takes does not change.
    expect(screen.queryByRole('status', { name: 'Loading photos…' })).not.toBeInTheDocument();
    const hidden = container.querySelector('[aria-hidden="true"]');
    expect(hidden).toContainElement(container.querySelector('.MuiSkeleton-root'));
    expect(getComputedStyle(hidden!).visibility).toBe('hidden');

    setBrowserOnline(true);
    expect(screen.getByRole('status', { name: 'Loading photos…' })).toBeInTheDocument();
    expect(screen.queryByText('You are offline')).not.toBeInTheDocument();
  });

  it('says it once for placeholders nested in one another', () => {
    setBrowserOnline(false);
    render(
      <OfflineFallback>
        <ListSkeleton rows={1} />
        <TileGridSkeleton count={2} />
      </OfflineFallback>,
    );
    expect(screen.getAllByText('You are offline')).toHaveLength(1);
  });

  it('turns the spinner into the offline state', () => {
    render(<LoadingState label="Loading the profile…" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the profile…');
    setBrowserOnline(false);
    expect(screen.getByRole('status')).toHaveTextContent('You are offline');
    expect(screen.queryByRole('progressbar', { hidden: true })).not.toBeInTheDocument();
  });
});
