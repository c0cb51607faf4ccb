import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { createContext, useContext, type ReactNode } from 'react';
import { useOnline } from '@/lib/use-online';

/** Data that has not loaded and cannot while offline: said plainly, with when it will come. */
export function OfflineState() {
  return (
    <Stack role="status" spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}>
      <CloudOffOutlined aria-hidden sx={{ fontSize: 40, color: 'text.secondary' }} />
      <Typography variant="body1" sx={{ fontWeight: 500 }}>
        You are offline
      </Typography>
      <Typography variant="body2" color="text.secondary">
        This will load when the connection returns.
      </Typography>
    </Stack>
  );
}

/** Set inside an OfflineFallback, so the placeholders within it do not say it a second time. */
const InsideOfflineFallback = createContext(false);

/**
 * A loading placeholder (`children`) while online. Offline, a query that has no data is paused
 * until the connection returns, and the placeholder would stay forever: the OfflineState shows
 * instead, in the placeholder's place and at least its height (nothing below jumps when it
 * turns back into the placeholder and then the data). Placeholders nested in one say nothing.
 */
export function OfflineFallback({
  children,
  loading = true,
}: {
  children: ReactNode;
  /**
   * Whether `children` is still a placeholder. A page whose parts load on their own passes
   * false once one of them has something to show: the rest say it themselves.
   */
  loading?: boolean;
}) {
  const online = useOnline();
  const nested = useContext(InsideOfflineFallback);
  if (online || nested || !loading) return children;
  return (
    <Box sx={{ display: 'grid', '& > *': { gridArea: '1 / 1', minWidth: 0 } }}>
      <Box aria-hidden sx={{ visibility: 'hidden' }}>
        <InsideOfflineFallback value>{children}</InsideOfflineFallback>
      </Box>
      <Box>
        <OfflineState />
      </Box>
    </Box>
  );
}
