import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { optionalPart } from '@/components/optional-part';
import { useCurrentUser } from '@/lib/session';
import { HI_VIS_ORANGE } from '../theme';

/*
 * The menu (MUI's Menu, a popover) is fetched on the first click, not with the top bar; offline
 * before it came, the click does nothing (optionalPart).
 */
const ProfileMenu = optionalPart(() => import('./profile-menu'));
const MENU_ID = 'profile-menu';

function initials(firstname: string, lastname: string): string {
  return `${firstname.trim().charAt(0)}${lastname.trim().charAt(0)}`.toUpperCase() || '?';
}

/**
 * The signed-in user's avatar and name (name hidden on phones, cut on narrow desktops: the whole
 * name is its tooltip and heads the menu). Opens the profile menu: My profile and the theme.
 */
export function ProfilePreview() {
  const user = useCurrentUser();
  const name = `${user.firstname} ${user.lastname}`.trim();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so the menu animates its later openings too.
  const [menuUsed, setMenuUsed] = useState(false);
  const open = anchorEl !== null;
  return (
    <>
      <ButtonBase
        aria-label={`Profile menu (${name})`}
        title={name}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? MENU_ID : undefined}
        onClick={(event) => {
          setMenuUsed(true);
          setAnchorEl(event.currentTarget);
        }}
        sx={{
          borderRadius: 6,
          p: 0.5,
          gap: 1,
          color: 'inherit',
          '&:focus-visible': { outline: '2px solid', outlineColor: HI_VIS_ORANGE },
        }}
      >
        {/* Drawn as MUI's letter Avatar is, without the component (image loading, fallback icon). */}
        <Box
          aria-hidden
          sx={(theme) => ({
            position: 'relative',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            flexShrink: 0,
            width: 32,
            height: 32,
            fontFamily: theme.typography.fontFamily,
            fontSize: '0.9rem',
            lineHeight: 1,
            borderRadius: '50%',
            overflow: 'hidden',
            userSelect: 'none',
            bgcolor: HI_VIS_ORANGE,
            color: '#1C1917',
            fontWeight: 700,
          })}
        >
          {initials(user.firstname, user.lastname)}
        </Box>
        <Typography
          component="span"
          variant="body2"
          sx={{
            display: { xs: 'none', lg: 'inline' },
            maxWidth: 160,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            fontWeight: 500,
          }}
        >
          {name}
        </Typography>
      </ButtonBase>
      {menuUsed ? (
        <ProfileMenu
          id={MENU_ID}
          anchorEl={anchorEl}
          onClose={() => setAnchorEl(null)}
          name={name}
        />
      ) : null}
    </>
  );
}
