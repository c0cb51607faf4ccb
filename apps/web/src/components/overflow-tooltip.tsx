import {
  cloneElement,
  useId,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { optionalPart } from './optional-part';

// Fetched on the first hover or focus; offline before it came, no tooltip (optionalPart).
const OverflowTooltipPopup = optionalPart(() => import('./overflow-tooltip-popup'));

/** Marks a text that may be cut with an ellipsis; OverflowTooltip shows it whole when it is. */
export const overflowText = { 'data-overflow-text': '' } as const;

const isCut = (element: HTMLElement) =>
  element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;

/** The texts marked with `overflowText` in (or on) `element` that do not fit, in order. */
function cutTexts(element: HTMLElement): string[] {
  const marked = [
    ...(element.matches('[data-overflow-text]') ? [element] : []),
    ...element.querySelectorAll<HTMLElement>('[data-overflow-text]'),
  ];
  return marked.filter(isCut).map((text) => text.textContent ?? '');
}

function focusVisible(element: HTMLElement): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true; // A browser without :focus-visible shows it on every focus.
  }
}

interface AnchorProps {
  onMouseEnter: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave: (event: MouseEvent<HTMLElement>) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onBlur: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

/**
 * Names are never cut silently: spread `anchorProps` on a link or button whose texts may end in
 * an ellipsis (each marked with `overflowText`) and render `popup` next to it; the whole of the
 * texts that are cut then shows in a tooltip on hover and on keyboard focus, and nothing for
 * texts that fit. Escape hides it. Screen readers already read the whole text (an ellipsis only
 * hides it from the eye), so the tooltip is not made the element's description, which would
 * say it twice.
 */
export function useOverflowTooltip(): { anchorProps: AnchorProps; popup: ReactNode } {
  const id = useId();
  const [shown, setShown] = useState<{ anchor: HTMLElement; lines: string[] } | null>(null);

  const show = (anchor: HTMLElement) => {
    const lines = cutTexts(anchor);
    setShown(lines.length > 0 ? { anchor, lines } : null);
  };
  const hide = () => setShown(null);

  return {
    anchorProps: {
      onMouseEnter: (event) => show(event.currentTarget),
      // A tooltip the keyboard opened stays while the focus does.
      onMouseLeave: (event) => {
        if (!focusVisible(event.currentTarget)) hide();
      },
      onFocus: (event) => {
        if (focusVisible(event.currentTarget)) show(event.currentTarget);
      },
      onBlur: hide,
      onKeyDown: (event) => {
        if (event.key === 'Escape') hide();
      },
    },
    popup: shown ? (
      <OverflowTooltipPopup id={id} anchorEl={shown.anchor} lines={shown.lines} />
    ) : null,
  };
}

type ChildProps = Partial<AnchorProps>;

/** useOverflowTooltip as a wrapper of one link or button, keeping the child's own handlers. */
export function OverflowTooltip({ children }: { children: ReactElement<ChildProps> }) {
  const { anchorProps: tip, popup } = useOverflowTooltip();
  const own = children.props;
  return (
    <>
      {cloneElement(children, {
        onMouseEnter: (event) => {
          own.onMouseEnter?.(event);
          tip.onMouseEnter(event);
        },
        onMouseLeave: (event) => {
          own.onMouseLeave?.(event);
          tip.onMouseLeave(event);
        },
        onFocus: (event) => {
          own.onFocus?.(event);
          tip.onFocus(event);
        },
        onBlur: (event) => {
          own.onBlur?.(event);
          tip.onBlur(event);
        },
        onKeyDown: (event) => {
          own.onKeyDown?.(event);
          tip.onKeyDown(event);
        },
      })}
      {popup}
    </>
  );
}
