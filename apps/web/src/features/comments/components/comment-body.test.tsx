import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CommentBody } from './comment-body';

function renderBody(body: string) {
  const router = createMemoryRouter([
    { path: '/', element: <CommentBody body={body} mentions={[]} /> },
  ]);
  return render(<RouterProvider router={router} />);
}

describe('CommentBody', () => {
  it('titles every link with the host it really opens', () => {
    renderBody('Spec: https://\u0435xample.com/pay and https://docs.example.com/a.');
    const [lookAlike, plain] = screen.getAllByRole('link');
    expect(lookAlike).toHaveAttribute('href', 'https://xn--xample-2of.com/pay');
    expect(lookAlike).toHaveAttribute('title', 'Opens xn--xample-2of.com');
    expect(plain).toHaveAttribute('title', 'Opens docs.example.com');
    expect(plain).toHaveAttribute('target', '_blank');
  });

  it('shows an address with a user name as text, not as a link', () => {
    renderBody('Log in at https://example.com@evil.test/login');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByText('Log in at https://example.com@evil.test/login')).toBeInTheDocument();
  });
});
