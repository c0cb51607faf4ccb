import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useOnline } from '@/lib/use-online';

/**
 * A centred spinner with a readable label, for loads without a known shape. Offline (a paused
 * load that cannot finish) it says so instead. The app shell shows it, so it stays this small:
 * no icon, nothing the page placeholders' OfflineState brings (bench/web-bundle.ts).
 */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  const online = useOnline();
  if (!online)
    return (
      <Stack role="status" spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 6 }}>
        <Typography variant="body1" sx={{ fontWeight: 500 }}>
          You are offline
        </Typography>
        <Typography variant="body2" color="text.secondary">
          This will load when the connection returns.
        </Typography>
      </Stack>
    );
  return (
    <Stack role="status" spacing={2} sx={{ alignItems: 'center', py: 6 }}>
      <CircularProgress aria-hidden size={32} />
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Stack>
  );
}
