import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import { Suspense, useState } from 'react';
import { LoadingState } from '@/components/loading-state';
import { Outlet, useLocation } from 'react-router';
import { SideMenu } from './side-menu';
import { TOP_BAR_HEIGHT_DESKTOP, TopBar } from './top-bar';

export const DRAWER_WIDTH = 240;

/**
 * The signed-in frame: top bar, side menu (temporary drawer on phones, permanent from md up)
 * and the page. Rendered behind RequireAuth.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  // The phone menu is open for the page it was opened on, so any navigation closes it.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const menuOpen = openedAt === pathname;
  const openMenu = () => setOpenedAt(pathname);
  const closeMenu = () => setOpenedAt(null);

  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <TopBar onOpenMenu={openMenu} />
      <Box sx={{ display: 'flex', flex: 1, minWidth: 0 }}>
        <Drawer
          variant="temporary"
          open={menuOpen}
          onClose={closeMenu}
          // The open drawer is a modal dialog: it needs a name of its own.
          slotProps={{ paper: { 'aria-label': 'Menu' } }}
          sx={{
            display: { xs: 'block', md: 'none' },
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH },
          }}
        >
          <Box sx={{ pt: 1 }}>
            <SideMenu onNavigate={closeMenu} />
          </Box>
        </Drawer>
        <Drawer
          variant="permanent"
          sx={{
            display: { xs: 'none', md: 'block' },
            width: DRAWER_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': {
              width: DRAWER_WIDTH,
              top: TOP_BAR_HEIGHT_DESKTOP,
              height: `calc(100% - ${TOP_BAR_HEIGHT_DESKTOP}px)`,
              pt: 1,
            },
          }}
        >
          <SideMenu />
        </Drawer>
        <Box
          component="main"
          sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 3 }, maxWidth: 1440 }}
        >
          {/* Only the page area waits for a page's code: the shell stays in place. */}
          <Suspense fallback={<LoadingState />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
