import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OverflowTooltip, overflowText } from './overflow-tooltip';

const longName = `North façade, level 3: ${'formwork before the pour, '.repeat(6)}east end`;

function Tile() {
  return (
    <OverflowTooltip>
      <a href="/upload/1">
        <span {...overflowText} style={{ whiteSpace: 'nowrap', overflow: 'hidden' }}>
          {longName}
        </span>
        <span {...overflowText}>Mia Mason</span>
      </a>
    </OverflowTooltip>
  );
}

/** jsdom lays nothing out: `cut` texts are measured wider than their box, as a browser would. */
function layOut(cut: string[]) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return cut.includes(this.textContent ?? '') ? 400 : 100;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(100);
}

afterEach(() => vi.restoreAllMocks());

describe('OverflowTooltip', () => {
  it('shows a cut name whole on hover, and only the texts that are cut', async () => {
    layOut([longName]);
    const user = userEvent.setup();
    render(<Tile />);
    await user.hover(screen.getByRole('link'));
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(longName);
    expect(tooltip).not.toHaveTextContent('Mia Mason');
    await user.unhover(screen.getByRole('link'));
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('shows it on keyboard focus too, and Escape hides it', async () => {
    layOut([longName, 'Mia Mason']);
    // jsdom never matches :focus-visible; a browser does for focus that came from the keyboard.
    const matches = Object.getOwnPropertyDescriptor(Element.prototype, 'matches')?.value as (
      this: Element,
      selectors: string,
    ) => boolean;
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (
      this: Element,
      selector: string,
    ) {
      return selector === ':focus-visible'
        ? this === document.activeElement
        : matches.call(this, selector);
    });
    const user = userEvent.setup();
    render(<Tile />);
    await user.tab();
    expect(screen.getByRole('link')).toHaveFocus();
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(`${longName}Mia Mason`);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('says nothing when every text fits', async () => {
    layOut([]);
    const user = userEvent.setup();
    render(<Tile />);
    await user.hover(screen.getByRole('link'));
    await user.tab();
    // Give a lazily loaded tooltip the time to show, were it wrongly opened.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
