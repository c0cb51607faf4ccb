import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/lib/paths';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { HI_VIS_ORANGE, TOP_BAR_COLOR } from '../theme';
import { optionalPart } from '@/components/optional-part';
import { ProfilePreview } from './profile-preview';
import { SearchBox } from './search-box';

export const TOP_BAR_HEIGHT_DESKTOP = 64;

/*
 * The upload queue's count. Its code (the queue, IndexedDB) loads once the browser is idle after
 * the first render, and then starts the queue: photos left by a closed tab are sent from any
 * page, not only the uploader. Offline on a first visit its code may not come: the page goes on
 * without the count (the uploader runs the queue itself).
 */
const QueueIndicator = optionalPart(() =>
  Promise.all([
    import('@/features/uploads/queue/queue-indicator'),
    import('../invalidations'),
  ]).then(([indicator, invalidations]) => ({
    default: () => <indicator.QueueIndicator afterUpload={invalidations.afterUploadChange} />,
  })),
);

/*
 * The bell's count: polled by a chunk loaded once the browser is idle, like the queue's; the bell
 * itself (in the first download) only reads the count.
 */
const UnreadPoller = optionalPart(() =>
  import('@/features/notifications/components/unread-poller').then((m) => ({
    default: m.UnreadPoller,
  })),
);

function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setIdle(true), 200);
      return () => clearTimeout(timer);
    }
    const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
  return idle ? children : null;
}

function Logo() {
  return (
    <Box
      component={RouterLink}
      to={paths.home}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        color: 'inherit',
        textDecoration: 'none',
        borderRadius: 1,
        '&:focus-visible': { outline: '2px solid', outlineColor: HI_VIS_ORANGE, outlineOffset: 2 },
      }}
    >
      <Box
        component="svg"
        viewBox="0 0 32 32"
        aria-hidden
        sx={{ width: 28, height: 28, flexShrink: 0 }}
      >
        <path d="M4 27 L16 5 L28 27 Z" fill={HI_VIS_ORANGE} />
        <rect x="9" y="19" width="14" height="3" fill={TOP_BAR_COLOR} />
      </Box>
      <Typography
        component="span"
        sx={{ fontWeight: 700, fontSize: '1.2rem', letterSpacing: '0.02em' }}
      >
        Sitelog
      </Typography>
    </Box>
  );
}

/**
 * Logo, UPLOAD, search, Notifications and the profile preview (spec §2). On phones the search
 * box wraps onto its own full-width row so nothing scrolls sideways at 375px.
 */
export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  return (
    <AppBar
      position="sticky"
      sx={(theme) => ({
        bgcolor: TOP_BAR_COLOR,
        color: '#FFFFFF',
        // Dark pages are nearly its colour: a line (drawn inside, so the height stays) keeps
        // the bar apart from them.
        boxShadow:
          theme.palette.mode === 'dark' ? `inset 0 -1px 0 ${theme.palette.divider}` : undefined,
        // Above the permanent (desktop) menu, which sits under it; below the phone drawer.
        zIndex: { md: theme.zIndex.drawer + 1 },
      })}
    >
      <Toolbar
        sx={{
          flexWrap: { xs: 'wrap', md: 'nowrap' },
          columnGap: { xs: 0.5, sm: 1.5 },
          rowGap: 1,
          py: { xs: 1, md: 0 },
          minHeight: { md: TOP_BAR_HEIGHT_DESKTOP },
        }}
      >
        <IconButton
          color="inherit"
          edge="start"
          aria-label="Open menu"
          onClick={onOpenMenu}
          sx={{ display: { md: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        <Logo />
        <Box sx={{ flexGrow: 1 }} />
        <Box
          sx={{ order: { xs: 10, md: 0 }, width: { xs: '100%', md: 360 }, flexShrink: { md: 1 } }}
        >
          <SearchBox />
        </Box>
        <Button
          component={RouterLink}
          to={paths.uploaderChoose}
          variant="contained"
          startIcon={<CloudUploadOutlined />}
          sx={{
            flexShrink: 0,
            '& .MuiButton-startIcon': { display: { xs: 'none', sm: 'inherit' } },
          }}
        >
          Upload
        </Button>
        <WhenIdle>
          <QueueIndicator />
          <UnreadPoller />
        </WhenIdle>
        <NotificationBell badgeColor={HI_VIS_ORANGE} badgeTextColor={TOP_BAR_COLOR} />
        <ProfilePreview />
      </Toolbar>
    </AppBar>
  );
}
