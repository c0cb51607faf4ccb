import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { Link as RouterLink, matchPath, useLocation } from 'react-router';
import { useCurrentUser } from '@/lib/session';
import { menuItems } from './menu-items';

/** The navigation list; the current page is highlighted and marked `aria-current="page"`. */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const items = menuItems.filter((item) => !item.adminOnly || user.isAdmin);

  return (
    <nav aria-label="Main menu">
      <List sx={{ px: 1 }}>
        {items.map(({ label, to, icon: Icon }) => {
          const selected = matchPath({ path: to, end: true }, pathname) !== null;
          return (
            <ListItem key={to} disablePadding sx={{ mb: 0.25 }}>
              <ListItemButton
                component={RouterLink}
                to={to}
                selected={selected}
                aria-current={selected ? 'page' : undefined}
                onClick={onNavigate}
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={label} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </nav>
  );
}
