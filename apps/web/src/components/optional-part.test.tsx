import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
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

  it('asks again after a pause when it failed while the browser was online', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<{ default: typeof Count }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Count });
    const Part = optionalPart(load);
    render(<Part />);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    // No 'online' event comes: the signal was back before the failure was seen.
    expect(await screen.findByText('3 photos waiting')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('passes its props through, and a second instance draws at once with the code already come', async () => {
    const Waiting = ({ count }: { count: number }) => <span>{count} photos waiting</span>;
    const load = vi.fn(() => Promise.resolve({ default: Waiting }));
    const Part = optionalPart(load);
    const { unmount } = render(<Part count={4} />);
    expect(await screen.findByText('4 photos waiting')).toBeInTheDocument();
    unmount();
    // Drawn in the same render, without waiting for the code again (a tooltip shown once more).
    render(<Part count={5} />);
    expect(screen.getByText('5 photos waiting')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('lets an error of the part itself reach the page, as a bug to see', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = (): ReactNode => {
      throw new Error('the part has a bug');
    };
    class PageBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
      override state = { error: null as string | null };
      static getDerivedStateFromError(error: Error) {
        return { error: error.message };
      }
      override render() {
        return this.state.error ? <p>Page error: {this.state.error}</p> : this.props.children;
      }
    }
    const Part = optionalPart(() => Promise.resolve({ default: Broken }));
    render(
      <PageBoundary>
        <Part />
      </PageBoundary>,
    );
    expect(await screen.findByText('Page error: the part has a bug')).toBeInTheDocument();
  });
});
