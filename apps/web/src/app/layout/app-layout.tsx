import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Outlet, useLocation } from 'react-router';
import { LoadingState } from '@/components/loading-state';
import { optionalPart } from '@/components/optional-part';
import { useOnline } from '@/lib/use-online';
import { lazyPage } from '../lazy-page';
import { DRAWER_WIDTH } from './drawer-width';
import { PhotoViewerHost } from './photo-viewer-host';
import { TOP_BAR_HEIGHT_DESKTOP, TopBar } from './top-bar';

// Fetched on the first tap of the menu button. Offline before it came, the tap does nothing
// until the signal is back; then the menu opens, unless the user has moved to another page.
const PhoneMenu = optionalPart(() => import('./phone-menu'));
/*
 * The menu's list, icons and links are a chunk of their own, fetched alongside the first page's:
 * phones (where the docked menu is hidden) do not wait for them before the first paint, and on
 * desktop the docked paper is there at once, so the items fill it without moving anything.
 */
const DockedSideMenu = lazyPage(() => import('./side-menu').then((m) => m.SideMenu));

/**
 * The offline banner, when offline. Its code (MUI's Alert) stays out of the first download
 * (bench/web-bundle.ts): it is fetched as soon as the shell is drawn, so it is at hand when the
 * connection drops, and the service worker keeps it for a start with no signal. A fetch that
 * fails (offline before it arrived, with no service worker) is tried again at the next change
 * of connection; until then the pages' own offline states speak.
 */
function OfflineNotice() {
  const online = useOnline();
  const [Banner, setBanner] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (Banner) return;
    let current = true;
    import('./offline-banner').then(
      (m) => {
        if (current) setBanner(() => m.OfflineBanner);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [Banner, online]);
  return !online && Banner ? <Banner /> : null;
}

/**
 * The side menu from md up: always there, so it is drawn as MUI's permanent drawer is (a docked
 * box holding a fixed, borderless paper with a divider on its right) without the Drawer
 * component, which would bring the modal machinery of the phone drawer into the first load.
 */
function DockedMenu() {
  return (
    <Box sx={{ display: { xs: 'none', md: 'block' }, flex: '0 0 auto', width: DRAWER_WIDTH }}>
      <Paper
        elevation={0}
        square
        sx={(theme) => ({
          overflowY: 'auto',
          display: 'flex',
          flexDirection: 'column',
          flex: '1 0 auto',
          zIndex: theme.zIndex.drawer,
          WebkitOverflowScrolling: 'touch',
          position: 'fixed',
          left: 0,
          outline: 0,
          borderRight: `1px solid ${theme.palette.divider}`,
          width: DRAWER_WIDTH,
          top: TOP_BAR_HEIGHT_DESKTOP,
          height: `calc(100% - ${TOP_BAR_HEIGHT_DESKTOP}px)`,
          pt: 1,
        })}
      >
        <Suspense fallback={null}>
          <DockedSideMenu />
        </Suspense>
      </Paper>
    </Box>
  );
}

/**
 * The signed-in frame: top bar, side menu (temporary drawer on phones, permanent from md up)
 * and the page. Rendered behind RequireAuth.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  // The phone menu is open for the page it was opened on, so any navigation closes it.
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  // The phone drawer's code is fetched when it is first opened, and it stays mounted after.
  const [phoneMenuUsed, setPhoneMenuUsed] = useState(false);
  const menuOpen = openedAt === pathname;
  const openMenu = () => {
    setPhoneMenuUsed(true);
    setOpenedAt(pathname);
  };
  const closeMenu = () => setOpenedAt(null);

  return (
    <>
      <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
        <TopBar onOpenMenu={openMenu} />
        <Box sx={{ display: 'flex', flex: 1, minWidth: 0 }}>
          {phoneMenuUsed && <PhoneMenu open={menuOpen} onClose={closeMenu} />}
          <DockedMenu />
          <Box
            component="main"
            sx={{
              flex: 1,
              minWidth: 0,
              px: { xs: 2, sm: 3 },
              py: { xs: 2, sm: 3 },
              maxWidth: 1440,
            }}
          >
            <OfflineNotice />
            {/* Only the page area waits for a page's code: the shell stays in place. */}
            <Suspense fallback={<LoadingState />}>
              <Outlet />
            </Suspense>
          </Box>
        </Box>
      </Box>
      <PhotoViewerHost />
    </>
  );
}

/** The shell's own lazy part, fetched with the first page's code (see preloadFirstPage). */
AppLayout.preload = () => DockedSideMenu.preload();
