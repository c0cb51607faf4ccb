import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { optionalPart } from './optional-part';

const Count = () => <span>3 photos waiting</span>;

describe('optionalPart', () => {
  it('draws the part once its code has come', async () => {
    const Part = optionalPart(() => Promise.resolve({ default: Count }));
    render(<Part />);
    expect(await screen.findByText('3 photos waiting')).toBeInTheDocument();
  });

  it('draws nothing when its code cannot be fetched, keeps the page, and asks again once online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<{ default: typeof Count }>>()
      .mockRejectedValueOnce(
        new TypeError('Failed to fetch dynamically imported module: /assets/queue-indicator.js'),
      )
      .mockResolvedValue({ default: Count });
    const Part = optionalPart(load);
    render(
      <main>
        <h1>Add photos</h1>
        <Part />
      </main>,
    );
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    // The rejection reaches the boundary a few ticks later.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByRole('heading', { name: 'Add photos' })).toBeInTheDocument();
    expect(screen.queryByText('3 photos waiting')).not.toBeInTheDocument();

    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('3 photos waiting')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
