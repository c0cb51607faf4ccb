import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import { Fragment, useCallback, useMemo, type ReactNode } from 'react';
import { highlightParts, searchTerms } from '../highlight-parts';

const markSx = {
  // The text keeps its own colour (on a tile, in a menu, in dark mode); the mark is a tint and
  // weight, so it reads without colour too.
  color: 'inherit',
  bgcolor: (theme: { palette: { warning: { main: string } } }) =>
    alpha(theme.palette.warning.main, 0.28),
  fontWeight: 700,
  borderRadius: '2px',
} as const;

interface HighlightProps {
  text: string;
  /** What was searched for: its words are marked where they start a word of `text`. */
  query: string;
}

/**
 * `text` with the searched words marked (<mark>). The text is only ever React text nodes, so a
 * name like `<img src=x onerror=…>` shows as written and never becomes HTML.
 */
export function Highlight({ text, query }: HighlightProps) {
  const terms = useMemo(() => searchTerms(query), [query]);
  return <HighlightTerms text={text} terms={terms} />;
}

function HighlightTerms({ text, terms }: { text: string; terms: readonly string[] }) {
  const parts = useMemo(() => highlightParts(text, terms), [text, terms]);
  return (
    <>
      {parts.map((part, i) =>
        part.match ? (
          <Box component="mark" key={i} sx={markSx}>
            {part.text}
          </Box>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * A stable `(text) => marked text` for one query, for components that take a text renderer
 * (project cards, photo tiles): it changes only when the query does.
 */
export function useHighlighter(query: string): (text: string) => ReactNode {
  const terms = useMemo(() => searchTerms(query), [query]);
  return useCallback((text: string) => <HighlightTerms text={text} terms={terms} />, [terms]);
}
