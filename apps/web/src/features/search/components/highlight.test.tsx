import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlight } from './highlight';

describe('Highlight', () => {
  it('marks the matched words with <mark> and keeps the rest as text', () => {
    const { container } = render(
      <p data-testid="line">
        <Highlight text="Béton armé for the Rebar cage" query="beton reba" />
      </p>,
    );
    const marks = [...container.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['Béton', 'Reba']);
    expect(screen.getByTestId('line')).toHaveTextContent('Béton armé for the Rebar cage');
  });

  it('shows hostile markup as text and never as HTML', () => {
    const hostile = '<img src=x onerror=alert(1)><b>bold</b> img';
    const { container } = render(
      <p data-testid="line">
        <Highlight text={hostile} query="img onerror" />
      </p>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByTestId('line').textContent).toBe(hostile);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'img',
      'onerror',
      'img',
    ]);
  });

  it('a query with markup in it is text too', () => {
    const { container } = render(
      <p>
        <Highlight text="North wall" query="<img src=x onerror=alert(1)> north" />
      </p>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('mark')).toHaveTextContent('North');
  });
});
