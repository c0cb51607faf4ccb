import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { alpha } from '@mui/material/styles';
import {
  lazy,
  Suspense,
  useCallback,
  useId,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';
import { PHOTO_PARAM } from '@/features/uploads/viewer/photo-param';
import type { SuggestionTarget } from '@/features/search/components/search-suggestions';

/**
 * The dropdown opens from this many characters: the search contract's `searchLimits.queryMin`,
 * spelled here because the shell does not load the contract (zod) in its first download
 * (search-box.test.tsx checks that the two agree).
 */
export const TYPE_AHEAD_MIN = 2;

/* The dropdown (its query, the marks, the contract) is fetched when the box is first focused. */
const loadSuggestions = () => import('@/features/search/components/search-suggestions');
const SearchSuggestions = lazy(() =>
  loadSuggestions().then((module) => ({ default: module.SearchSuggestions })),
);

/** Every option of the open dropdown, in order (the arrow keys walk them). */
const optionsOf = (listboxId: string): HTMLElement[] => [
  ...(document.getElementById(listboxId)?.querySelectorAll<HTMLElement>('[role="option"]') ?? []),
];

/**
 * Top-bar search (spec §2), an ARIA combobox: from two characters a dropdown shows the first
 * few matching projects, photos and people; the arrow keys move through them, Enter opens the
 * one highlighted, Escape closes the dropdown. Enter with none highlighted (or the search
 * button) opens /search?q=… . Whatever is opened, the box is cleared.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const location = useLocation();
  const listboxId = useId();
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  // Escape closes the dropdown until the text changes.
  const [dismissed, setDismissed] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const query = text.trim();
  const open = focused && !dismissed && query.length >= TYPE_AHEAD_MIN;
  const listShown = open && expanded;

  const reset = () => {
    setText('');
    setActiveId(null);
    setDismissed(false);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(paths.search(query));
    reset();
  };

  const choose = (target: SuggestionTarget) => {
    if (target.kind === 'project') void navigate(paths.project(target.project.id));
    else if (target.kind === 'person') void navigate(paths.memberProfile(target.person.id));
    else if (target.kind === 'all') void navigate(paths.search(target.query));
    else {
      // The photo opens full screen over the current page, as a tile's link does.
      const params = new URLSearchParams(location.search);
      params.set(PHOTO_PARAM, String(target.upload.id));
      void navigate(`${location.pathname}?${params.toString()}`, {
        state: { photoViewer: true },
      });
    }
    reset();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setDismissed(false);
        return;
      }
      const options = optionsOf(listboxId);
      if (options.length === 0) return;
      const at = options.findIndex((option) => option.id === activeId);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next =
        at === -1
          ? step === 1
            ? 0
            : options.length - 1
          : (at + step + options.length) % options.length;
      setActiveId(options[next]!.id);
    } else if (event.key === 'Enter') {
      const active = activeId && listShown ? document.getElementById(activeId) : null;
      if (active) {
        event.preventDefault();
        active.click();
      }
    } else if (event.key === 'Escape') {
      // Open, Escape closes the dropdown (and does not clear the box, as a search field would).
      if (open) {
        event.preventDefault();
        setDismissed(true);
        setActiveId(null);
      }
    }
  };

  const onExpandedChange = useCallback((shown: boolean) => setExpanded(shown), []);

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
        <Suspense fallback={null}>
          <SearchSuggestions
            query={query}
            listboxId={listboxId}
            activeId={activeId}
            onActivate={setActiveId}
            onChoose={choose}
            onExpandedChange={onExpandedChange}
          />
        </Suspense>
      ) : null}
    </Box>
  );
}
