import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CollapsibleText } from './collapsible-text';

/**
 * jsdom lays nothing out: every box is 0 px high. The clamped text's two heights are set here as
 * a browser would measure them (e2e/long-content.spec.ts checks the real layout).
 */
function layOut({ content, clamped }: { content: number; clamped: number }) {
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(content);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(clamped);
}

/** jsdom has no scrollIntoView: record which elements ask to be scrolled into view. */
function recordScrolls(): Element[] {
  const scrolled: Element[] = [];
  Object.defineProperty(Element.prototype, 'scrollIntoView', {
    configurable: true,
    value(this: Element) {
      scrolled.push(this);
    },
  });
  return scrolled;
}

afterEach(() => {
  vi.restoreAllMocks();
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

const long = `First line of a long description.\nSecond line.\n\n${'Formwork and rebar. '.repeat(100)}`;

describe('CollapsibleText', () => {
  it('has no button when the text fits', () => {
    layOut({ content: 48, clamped: 48 });
    render(<CollapsibleText text="Short and sweet." />);
    expect(screen.getByText('Short and sweet.')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('clamps text that overflows, and Show more / Show less toggle it with aria-expanded', async () => {
    layOut({ content: 900, clamped: 144 });
    const scrolled = recordScrolls();
    const user = userEvent.setup();
    render(<CollapsibleText text={long} lines={6} />);
    const more = screen.getByRole('button', { name: 'Show more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    const text = document.getElementById(more.getAttribute('aria-controls') ?? '');
    expect(text).toHaveStyle({ WebkitLineClamp: '6', overflow: 'hidden' });

    await user.click(more);
    const less = screen.getByRole('button', { name: 'Show less' });
    expect(less).toHaveAttribute('aria-expanded', 'true');
    expect(less).toBe(more);
    expect(text).not.toHaveStyle({ overflow: 'hidden' });
    // Expanding leaves the button where it is: nothing to bring back into view.
    expect(scrolled).toEqual([]);

    await user.click(less);
    expect(screen.getByRole('button', { name: 'Show more' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    // Collapsing moves the button up, maybe out of view: it is scrolled back, once.
    await waitFor(() => expect(scrolled).toEqual([more]));
  });

  it('keeps line breaks and renders markup as text', () => {
    layOut({ content: 48, clamped: 48 });
    const text = 'Line one\nLine two <b>not bold</b> <img src=x onerror=alert(1)>';
    const { container } = render(<CollapsibleText text={text} />);
    const paragraph = screen.getByText(/Line one/);
    expect(paragraph.textContent).toBe(text);
    expect(paragraph).toHaveStyle({ whiteSpace: 'pre-line' });
    expect(container.querySelector('b, img')).toBeNull();
  });
});
