import CheckOutlined from '@mui/icons-material/CheckOutlined';
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SettingsBrightnessOutlined from '@mui/icons-material/SettingsBrightnessOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type SvgIcon from '@mui/material/SvgIcon';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';
import {
  setColorModePreference,
  useColorModePreference,
  type ColorModePreference,
} from '../color-mode';

const modes: { value: ColorModePreference; label: string; icon: typeof SvgIcon }[] = [
  { value: 'system', label: 'System', icon: SettingsBrightnessOutlined },
  { value: 'light', label: 'Light', icon: LightModeOutlined },
  { value: 'dark', label: 'Dark', icon: DarkModeOutlined },
];

/**
 * The profile preview's menu: My profile (with the whole name, which the top bar may cut) and
 * the colour theme, System / Light / Dark. Its own chunk, fetched on the first click, so the
 * menu's popover stays out of the first download.
 */
export default function ProfileMenu({
  id,
  anchorEl,
  onClose,
  name,
}: {
  id: string;
  anchorEl: HTMLElement | null;
  onClose: () => void;
  name: string;
}) {
  const preference = useColorModePreference();
  return (
    <Menu
      id={id}
      anchorEl={anchorEl}
      open={anchorEl !== null}
      onClose={onClose}
      // Focus starts on My profile, not on the checked theme.
      variant="menu"
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        list: { 'aria-label': 'Profile menu', dense: false },
        paper: { sx: { minWidth: 220, maxWidth: 320 } },
      }}
    >
      <MenuItem component={RouterLink} to={paths.profile} onClick={onClose}>
        <ListItemIcon>
          <PersonOutline />
        </ListItemIcon>
        <ListItemText
          primary="My profile"
          secondary={name}
          slotProps={{ secondary: { sx: { overflowWrap: 'anywhere', whiteSpace: 'normal' } } }}
        />
      </MenuItem>
      <Divider />
      {/* Each item says "Theme" to screen readers itself; this heading is for the eye. */}
      <ListSubheader aria-hidden sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>
        Theme
      </ListSubheader>
      {modes.map(({ value, label, icon: Icon }) => {
        const checked = preference === value;
        return (
          <MenuItem
            key={value}
            role="menuitemradio"
            aria-checked={checked}
            selected={checked}
            onClick={() => {
              setColorModePreference(value);
              onClose();
            }}
          >
            <ListItemIcon>
              <Icon />
            </ListItemIcon>
            <ListItemText>
              <Box component="span" sx={visuallyHidden}>
                Theme:
              </Box>{' '}
              {label}
            </ListItemText>
            {checked ? <CheckOutlined aria-hidden fontSize="small" sx={{ ml: 2 }} /> : null}
          </MenuItem>
        );
      })}
    </Menu>
  );
}
