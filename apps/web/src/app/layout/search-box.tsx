import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { alpha } from '@mui/material/styles';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';

/** Top-bar search: Enter or the search button opens /search?q=… and clears the box (spec §2). */
export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(paths.search(text.trim()));
    setText('');
  };

  return (
    <Box
      component="form"
      role="search"
      onSubmit={onSubmit}
      sx={(theme) => ({
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
          onChange={(event: ChangeEvent<HTMLInputElement>) => setText(event.target.value)}
          placeholder="Search…"
          type="search"
          aria-label="Search"
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
    </Box>
  );
}
