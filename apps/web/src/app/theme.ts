import { createTheme } from '@mui/material/styles';

/** Safety orange, deep enough for white text and for orange text on light surfaces (WCAG AA). */
const SAFETY_ORANGE = '#C2410C';
/** The brighter hi-vis orange, for marks on the dark top bar only. */
export const HI_VIS_ORANGE = '#FF6700';
/** The top bar: asphalt dark. */
export const TOP_BAR_COLOR = '#1C1917';

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: SAFETY_ORANGE, light: '#EA580C', dark: '#9A3412', contrastText: '#FFFFFF' },
    secondary: { main: '#44403C', contrastText: '#FFFFFF' },
    background: { default: '#F5F5F4', paper: '#FFFFFF' },
    text: { primary: '#1C1917', secondary: '#57534E' },
    divider: '#E7E5E4',
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 700, lineHeight: 1.25 },
    h2: { fontSize: '1.25rem', fontWeight: 700, lineHeight: 1.3 },
    h3: { fontSize: '1.1rem', fontWeight: 600 },
    button: { fontWeight: 600, letterSpacing: '0.04em' },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0 },
    },
    MuiPaper: {
      styleOverrides: { outlined: { borderColor: '#E7E5E4' } },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: ({ theme: t }) => ({
          borderRadius: t.shape.borderRadius,
          '&.Mui-selected': {
            color: t.palette.primary.dark,
            fontWeight: 600,
            '& .MuiListItemIcon-root': { color: t.palette.primary.main },
          },
        }),
      },
    },
  },
});
