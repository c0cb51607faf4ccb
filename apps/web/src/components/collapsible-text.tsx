import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import { useId, useLayoutEffect, useRef, useState } from 'react';

interface CollapsibleTextProps {
  /** Plain text as typed; rendered as text (never markup), its line breaks kept. */
  text: string;
  /** Lines shown while collapsed. */
  lines?: number;
  variant?: TypographyProps['variant'];
  /** pre-line folds runs of spaces; pre-wrap keeps them as typed. */
  whiteSpace?: 'pre-line' | 'pre-wrap';
  /** Around the text and its button (margins, width). */
  sx?: SxProps<Theme>;
}

/**
 * Long text clamped to a few lines, with "Show more" / "Show less" (aria-expanded) when it does
 * not fit. The button appears only when the text overflows, measured again when the width
 * changes, so a short description reads as before.
 */
export function CollapsibleText({
  text,
  lines = 6,
  variant = 'body1',
  whiteSpace = 'pre-line',
  sx,
}: CollapsibleTextProps) {
  const id = useId();
  const textRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const element = textRef.current;
    if (!element || expanded) return;
    // Clamped, the box is shorter than its content exactly when some lines are hidden.
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text, lines, expanded]);

  const toggle = () => {
    setExpanded((was) => !was);
    // Collapsing a long text moves the button up, maybe out of view: bring it back.
    if (expanded)
      requestAnimationFrame(() => buttonRef.current?.scrollIntoView?.({ block: 'nearest' }));
  };

  return (
    <Box sx={sx}>
      <Typography
        ref={textRef}
        id={id}
        variant={variant}
        sx={{
          whiteSpace,
          overflowWrap: 'anywhere',
          ...(expanded
            ? {}
            : {
                display: '-webkit-box',
                WebkitBoxOrient: 'vertical',
                WebkitLineClamp: lines,
                overflow: 'hidden',
              }),
        }}
      >
        {text}
      </Typography>
      {overflows || expanded ? (
        <Button
          ref={buttonRef}
          size="small"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={toggle}
          sx={{ mt: 0.5, ml: -1 }}
        >
          {expanded ? 'Show less' : 'Show more'}
        </Button>
      ) : null}
    </Box>
  );
}
