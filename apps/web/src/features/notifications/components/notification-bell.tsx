import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/lib/paths';
import type { UnreadState } from '../api/get-unread-count';
import { unreadKey } from '../api/unread-key';

/** The bell's accessible name: "Notifications, 3 unread". */
export const bellLabel = (count: number) =>
  count > 0 ? `Notifications, ${count} unread` : 'Notifications';

/** What the badge shows: the count, or 99+. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));

/**
 * The unread count as the cache holds it. The bell only reads it: the poll that fills it
 * (`UnreadPoller`) is a lazy chunk, so the shell's first download carries just this button.
 */
export function useCachedUnreadCount(): number {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  const read = () => queryClient.getQueryData<UnreadState>(unreadKey)?.count ?? 0;
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * The top bar's bell: a link to /notifications named with the unread count, and a badge with the
 * count (99+) drawn by hand rather than with MUI's Badge, to stay small in the first download.
 * The badge's colours are the top bar's to choose.
 */
export function NotificationBell({
  badgeColor,
  badgeTextColor,
}: {
  badgeColor: string;
  badgeTextColor: string;
}) {
  const count = useCachedUnreadCount();
  return (
    <IconButton
      component={RouterLink}
      to={paths.notifications}
      color="inherit"
      aria-label={bellLabel(count)}
    >
      <NotificationsOutlined />
      {count > 0 ? (
        <Box
          component="span"
          aria-hidden
          data-testid="unread-badge"
          sx={{
            position: 'absolute',
            top: 2,
            right: 0,
            // 20 px tall and at least as wide: a circle for one digit, a pill for more.
            minWidth: 20,
            height: 20,
            px: 0.5,
            boxSizing: 'border-box',
            borderRadius: 10,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontSize: '0.7rem',
            fontWeight: 700,
            bgcolor: badgeColor,
            color: badgeTextColor,
          }}
        >
          {badgeText(count)}
        </Box>
      ) : null}
    </IconButton>
  );
}
