import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import { alpha } from '@mui/material/styles';
import { useState, type FormEvent } from 'react';
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
      <InputBase
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search…"
        type="search"
        slotProps={{ input: { 'aria-label': 'Search', enterKeyHint: 'search' } }}
        sx={{
          color: 'inherit',
          flex: 1,
          pl: 1.5,
          minWidth: 0,
          '& input::placeholder': { color: 'inherit', opacity: 0.75 },
        }}
      />
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
