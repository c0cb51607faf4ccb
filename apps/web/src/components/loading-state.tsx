import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A centred spinner with a readable label, for loads without a known shape. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Stack role="status" spacing={2} sx={{ alignItems: 'center', py: 6 }}>
      <CircularProgress aria-hidden size={32} />
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Stack>
  );
}

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
    <Box
      role="status"
      aria-label={label}
      sx={{ display: 'grid', gridTemplateColumns: tileColumns, gap: 1.5 }}
    >
      {Array.from({ length: count }, (_, i) => (
        <Box key={i}>
          <Skeleton variant="rounded" sx={{ width: '100%', height: 'auto', aspectRatio }} />
          <Skeleton variant="text" sx={{ width: '70%' }} />
        </Box>
      ))}
    </Box>
  );
}

/** Placeholder rows for lists and tables. */
export function ListSkeleton({ rows = 5, label = 'Loading…' }: { rows?: number; label?: string }) {
  return (
    <Stack role="status" aria-label={label} spacing={1}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} variant="rounded" height={40} />
      ))}
    </Stack>
  );
}
