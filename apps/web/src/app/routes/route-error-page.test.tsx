import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { testQueryClient } from '@/test/query-client';
import { RouteErrorBoundary } from './route-error-page';

function Broken(): never {
  throw new Error('The page broke while rendering.');
}

describe('route error boundary', () => {
  it('shows "Something went wrong" and Reload, never the error itself, and leaves on navigation', async () => {
    // React reports the caught error on the console; the boundary logs it too.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter([
      {
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          { path: 'broken', element: <Broken /> },
          { path: 'fine', element: <p>A working page</p> },
        ],
      },
    ]);
    await act(() => router.navigate('/broken'));
    render(
      <AppProviders queryClient={testQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    // No stack trace or internal message: the generic text the app shows for any unexpected error.
    expect(screen.getByText('Something went wrong. Please try again.')).toBeVisible();
    expect(screen.queryByText('The page broke while rendering.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();

    await act(() => router.navigate('/fine'));
    expect(await screen.findByText('A working page')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
  });
});
