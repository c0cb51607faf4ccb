import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { alpha } from '@mui/material/styles';
import {
  useCallback,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useNavigate } from 'react-router';
import { optionalPart } from '@/components/optional-part';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';
import { PHOTO_PARAM } from '@/features/uploads/viewer/photo-param';
import type { SuggestionKeys } from '@/features/search/components/search-suggestions';

/**
 * The dropdown opens from this many characters: the search contract's `searchLimits.queryMin`,
 * spelled here because the shell does not load the contract (zod) in its first download
 * (search-box.test.tsx checks that the two agree).
 */
export const TYPE_AHEAD_MIN = 2;
/** The longest search the server takes (`searchLimits.queryMax`, checked as TYPE_AHEAD_MIN). */
export const SEARCH_MAX = 1000;

/*
 * The dropdown (its query, the marks, the contract, and the keys that walk it) is fetched when
 * the box is first focused: the first download holds only the box. Offline before it came, the
 * box has no dropdown, and Enter still searches (optionalPart).
 */
const loadSuggestions = () => import('@/features/search/components/search-suggestions');
const SearchSuggestions = optionalPart(async () => ({
  default: (await loadSuggestions()).SearchSuggestions,
}));

/**
 * Top-bar search (spec §2), an ARIA combobox: from two characters a dropdown shows the first
 * few matching projects, photos and people; the arrow keys move through them, Enter opens the
 * one highlighted, Escape closes the dropdown. Enter with none highlighted (or the search
 * button) opens /search?q=… . Whatever is opened, the box is cleared.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const listboxId = useId();
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  // Escape closes the dropdown until the text changes (or an arrow key opens it again).
  const [dismissed, setDismissed] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  // The open dropdown's handling of the keys pressed in the box.
  const keysRef = useRef<SuggestionKeys | null>(null);
  const query = text.trim();
  const open = focused && !dismissed && query.length >= TYPE_AHEAD_MIN;
  const listShown = open && expanded;

  const reset = useCallback(() => {
    setText('');
    setActiveId(null);
    setDismissed(false);
  }, []);
  const dismiss = useCallback(() => {
    setDismissed(true);
    setActiveId(null);
  }, []);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(paths.search(query));
    reset();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (open) keysRef.current?.(event);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setDismissed(false);
    }
  };

  return (
    <Box
      component="form"
      role="search"
      onSubmit={onSubmit}
      sx={(theme) => ({
        position: 'relative',
        display: 'flex',
        alignItems: 'center',
        width: '100%',
        borderRadius: 1,
        bgcolor: alpha(theme.palette.common.white, 0.12),
        '&:hover': { bgcolor: alpha(theme.palette.common.white, 0.18) },
        '&:focus-within': { bgcolor: alpha(theme.palette.common.white, 0.22) },
      })}
    >
      {/*
        A plain input styled as MUI's InputBase draws it (root, then input): InputBase brings
        form-control and textarea code that this one-line box does not use into the first load.
      */}
      <Box
        sx={(theme) => ({
          ...theme.typography.body1,
          lineHeight: '1.4375em',
          boxSizing: 'border-box',
          position: 'relative',
          cursor: 'text',
          display: 'inline-flex',
          alignItems: 'center',
          color: 'inherit',
          flex: 1,
          pl: 1.5,
          minWidth: 0,
        })}
      >
        <Box
          component="input"
          value={text}
          onChange={(event: ChangeEvent<HTMLInputElement>) => {
            setText(event.target.value);
            setActiveId(null);
            setDismissed(false);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            setFocused(true);
            void loadSuggestions().catch(() => undefined);
          }}
          onBlur={() => {
            setFocused(false);
            setActiveId(null);
          }}
          placeholder="Search…"
          type="search"
          role="combobox"
          aria-label="Search"
          aria-autocomplete="list"
          aria-expanded={listShown}
          aria-controls={listShown ? listboxId : undefined}
          aria-activedescendant={listShown && activeId ? activeId : undefined}
          autoComplete="off"
          maxLength={SEARCH_MAX}
          enterKeyHint="search"
          sx={{
            font: 'inherit',
            letterSpacing: 'inherit',
            color: 'currentColor',
            p: '4px 0 5px',
            border: 0,
            boxSizing: 'content-box',
            background: 'none',
            height: '1.4375em',
            m: 0,
            WebkitTapHighlightColor: 'transparent',
            display: 'block',
            minWidth: 0,
            width: '100%',
            '&:focus': { outline: 0 },
            '&:invalid': { boxShadow: 'none' },
            '&::-webkit-search-decoration': { WebkitAppearance: 'none' },
            // The bar is dark in both modes: the browser's clear button is drawn for a dark field.
            colorScheme: 'dark',
            '&::placeholder': { color: 'inherit', opacity: 0.75 },
          }}
        />
      </Box>
      <IconButton type="submit" color="inherit" size="small" sx={{ mr: 0.5 }}>
        <SearchIcon />
        {/* Named by text, not aria-label, so the field is the only thing labelled "Search". */}
        <Box component="span" sx={visuallyHidden}>
          Search
        </Box>
      </IconButton>
      {open ? (
        <SearchSuggestions
          query={query}
          listboxId={listboxId}
          activeId={activeId}
          onActivate={setActiveId}
          onExpandedChange={setExpanded}
          onDismiss={dismiss}
          onDone={reset}
          keysRef={keysRef}
          photoParam={PHOTO_PARAM}
        />
      ) : null}
    </Box>
  );
}
