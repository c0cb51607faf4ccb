import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { useEffect, useState } from 'react';
import { DRAWER_WIDTH } from './drawer-width';
import { SideMenu } from './side-menu';

/**
 * The phone menu: a temporary drawer (a modal dialog). Loaded the first time it is opened, so
 * the modal, focus trap and slide transition are not part of the app's first load.
 */
export default function PhoneMenu({ open, onClose }: { open: boolean; onClose: () => void }) {
  // Mounted closed, then opened on the next frame: the drawer only animates an opening it
  // sees, so without this its first opening (which also mounts it) would not slide in.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setMounted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <Drawer
      variant="temporary"
      open={open && mounted}
      onClose={onClose}
      // The open drawer is a modal dialog: it needs a name of its own.
      slotProps={{ paper: { 'aria-label': 'Menu' } }}
      sx={{
        display: { xs: 'block', md: 'none' },
        '& .MuiDrawer-paper': { width: DRAWER_WIDTH },
      }}
    >
      <Box sx={{ pt: 1 }}>
        <SideMenu onNavigate={onClose} />
      </Box>
    </Drawer>
  );
}
