import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { OfflineFallback } from './offline-state';

/*
 * Kept apart from LoadingState: the app shell shows that spinner, while only pages show these,
 * so Skeleton loads with the pages instead of with the shell. Offline, each says "You are
 * offline" in its place instead (OfflineFallback).
 */

const tileColumns = {
  xs: 'repeat(2, minmax(0, 1fr))',
  sm: 'repeat(3, minmax(0, 1fr))',
  md: 'repeat(4, minmax(0, 1fr))',
  lg: 'repeat(6, minmax(0, 1fr))',
};

/** Placeholder tiles in the layout of the photo and project grids. */
export function TileGridSkeleton({
  count = 6,
  aspectRatio = '4 / 3',
  label = 'Loading…',
}: {
  count?: number;
  aspectRatio?: string;
  label?: string;
}) {
  return (
    <OfflineFallback>
      <Box
        role="status"
        aria-label={label}
        sx={{ display: 'grid', gridTemplateColumns: tileColumns, gap: 1.5 }}
      >
        {Array.from({ length: count }, (_, i) => (
          <Box key={i}>
            <Skeleton variant="rounded" sx={{ width: '100%', height: 'auto', aspectRatio }} />
            {/* The photo tile's two lines (name, date) in their own type sizes, so the grid keeps
                its height when the tiles arrive and nothing below it moves. */}
            <Box sx={{ px: 1, py: 0.75 }}>
              <Typography variant="body2">
                <Skeleton sx={{ width: '70%' }} />
              </Typography>
              <Typography variant="caption" component="p">
                <Skeleton sx={{ width: '40%' }} />
              </Typography>
            </Box>
          </Box>
        ))}
      </Box>
    </OfflineFallback>
  );
}

/** Placeholder rows for lists and tables. */
export function ListSkeleton({ rows = 5, label = 'Loading…' }: { rows?: number; label?: string }) {
  return (
    <OfflineFallback>
      <Stack role="status" aria-label={label} spacing={1}>
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={40} />
        ))}
      </Stack>
    </OfflineFallback>
  );
}
