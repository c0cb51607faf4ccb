import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '@/lib/format-date';
import { paths } from '@/lib/paths';
import type { ProjectListItem } from '../api/get-project-rows';
import { LocationLine } from './location-line';

export type SortKey = keyof ProjectListItem;
export type Direction = 'asc' | 'desc';

/** The table's columns as a phone's sort choices, with words for each order. */
const sortChoices: { key: SortKey; label: string; asc: string; desc: string }[] = [
  { key: 'updatedAt', label: 'Updated at', asc: 'Oldest first', desc: 'Newest first' },
  { key: 'name', label: 'Name', asc: 'A to Z', desc: 'Z to A' },
  { key: 'location', label: 'Location', asc: 'A to Z', desc: 'Z to A' },
  { key: 'creatorName', label: 'Creator', asc: 'A to Z', desc: 'Z to A' },
  { key: 'uploadsCount', label: 'Uploads', asc: 'Fewest first', desc: 'Most first' },
  { key: 'id', label: 'Number', asc: 'Lowest first', desc: 'Highest first' },
];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Sort by and Order, as two native selects (a phone shows its own picker for each). */
export function ProjectSortControls({
  sort,
  direction,
  onSort,
}: {
  sort: SortKey;
  direction: Direction;
  onSort: (key: SortKey, direction: Direction) => void;
}) {
  const current = sortChoices.find((choice) => choice.key === sort) ?? sortChoices[0]!;
  return (
    <Stack direction="row" spacing={1.5} sx={{ px: 2, pb: 2 }}>
      <TextField
        select
        label="Sort by"
        size="small"
        value={sort}
        onChange={(event) => {
          const key = event.target.value as SortKey;
          // Dates start with the newest, as the list does; the rest from the start.
          onSort(key, key === 'updatedAt' ? 'desc' : 'asc');
        }}
        slotProps={{ select: { native: true } }}
        sx={{ flex: 1, minWidth: 0 }}
      >
        {sortChoices.map((choice) => (
          <option key={choice.key} value={choice.key}>
            {choice.label}
          </option>
        ))}
      </TextField>
      <TextField
        select
        label="Order"
        size="small"
        value={direction}
        onChange={(event) => onSort(sort, event.target.value as Direction)}
        slotProps={{ select: { native: true } }}
        sx={{ flex: 1, minWidth: 0 }}
      >
        <option value="asc">{current.asc}</option>
        <option value="desc">{current.desc}</option>
      </TextField>
    </Stack>
  );
}

/**
 * All projects on a phone: one card per project with what the table's row says, the name (a
 * link that makes the whole card clickable) wrapping in full. Only the current page is rendered,
 * as with the table.
 */
export function ProjectListCards({
  items,
  emptyText,
}: {
  items: ProjectListItem[];
  emptyText: string;
}) {
  if (items.length === 0) {
    return (
      <Typography sx={{ px: 2, py: 4, textAlign: 'center', color: 'text.secondary' }}>
        {emptyText}
      </Typography>
    );
  }
  return (
    <Box
      component="ul"
      aria-label="All projects"
      sx={{ listStyle: 'none', m: 0, px: 2, pb: 1, display: 'grid', gap: 1 }}
    >
      {items.map((item) => (
        <Box
          component="li"
          key={item.id}
          sx={{
            position: 'relative',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            px: 1.5,
            py: 1.25,
            minWidth: 0,
            '&:hover': { bgcolor: 'action.hover' },
            '&:has(a:focus-visible)': {
              outline: '2px solid',
              outlineColor: 'primary.main',
              outlineOffset: -2,
            },
          }}
        >
          <Link
            component={RouterLink}
            to={paths.project(item.id)}
            underline="hover"
            color="inherit"
            sx={{
              fontWeight: 600,
              overflowWrap: 'anywhere',
              outline: 'none',
              // The whole card opens the project; the link keeps its own name and focus.
              '&::after': { content: '""', position: 'absolute', inset: 0 },
            }}
          >
            {item.name}
          </Link>
          <LocationLine location={item.location} />
          <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 0.5 }}>
            #{item.id} · {plural(item.uploadsCount, 'upload')} · updated{' '}
            <time dateTime={item.updatedAt}>{formatDate(item.updatedAt)}</time> by{' '}
            {item.creatorName}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
