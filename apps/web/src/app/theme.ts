import { createTheme, type PaletteOptions, type Theme } from '@mui/material/styles';

/** Safety orange, deep enough for white text and for orange text on light surfaces (WCAG AA). */
const SAFETY_ORANGE = '#C2410C';
/** The brighter hi-vis orange, for marks on the dark top bar only. */
export const HI_VIS_ORANGE = '#FF6700';
/** The top bar: asphalt dark, in both colour modes. */
export const TOP_BAR_COLOR = '#1C1917';

export type ColorMode = 'light' | 'dark';

/** Warm stone greys with safety orange (Tailwind's stone and orange scales). */
const lightPalette: PaletteOptions = {
  mode: 'light',
  primary: { main: SAFETY_ORANGE, light: '#EA580C', dark: '#9A3412', contrastText: '#FFFFFF' },
  secondary: { main: '#44403C', contrastText: '#FFFFFF' },
  background: { default: '#F5F5F4', paper: '#FFFFFF' },
  text: { primary: '#1C1917', secondary: '#57534E' },
  divider: '#E7E5E4',
};

/*
 * The same identity at night: asphalt surfaces, and an orange light enough for text on them
 * (7.7:1 on paper) that carries dark text when it is a button's fill (7.7:1). MUI's own dark
 * status colours are too dim for small text on these surfaces (its error red is 4.1:1), so
 * each is set to a lighter shade (all ≥ 6:1 on paper).
 */
const darkPalette: PaletteOptions = {
  mode: 'dark',
  primary: { main: '#FB923C', light: '#FDBA74', dark: '#F97316', contrastText: '#1C1917' },
  secondary: { main: '#D6D3D1', contrastText: '#1C1917' },
  background: { default: '#0C0A09', paper: '#1C1917' },
  text: { primary: '#F5F5F4', secondary: '#A8A29E' },
  divider: '#44403C',
  error: { main: '#F87171', contrastText: '#1C1917' },
  warning: { main: '#FBBF24', dark: '#F59E0B', contrastText: '#1C1917' },
  success: { main: '#4ADE80', contrastText: '#1C1917' },
  info: { main: '#60A5FA', contrastText: '#1C1917' },
};

function createAppTheme(mode: ColorMode): Theme {
  return createTheme({
    palette: mode === 'dark' ? darkPalette : lightPalette,
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
        styleOverrides: { outlined: ({ theme: t }) => ({ borderColor: t.palette.divider }) },
      },
      // MUI draws an unpressed toggle in action.active, 4.47:1 on the light page: below AA.
      MuiToggleButton: {
        styleOverrides: { root: ({ theme: t }) => ({ color: t.palette.text.secondary }) },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: ({ theme: t }) => ({
            borderRadius: t.shape.borderRadius,
            '&.Mui-selected': {
              // The deeper orange reads on light paper, the lighter one on dark.
              color: t.palette.mode === 'dark' ? t.palette.primary.light : t.palette.primary.dark,
              fontWeight: 600,
              '& .MuiListItemIcon-root': { color: t.palette.primary.main },
            },
          }),
        },
      },
    },
  });
}

const themes: Partial<Record<ColorMode, Theme>> = {};

/** The app's theme in one colour mode, made the first time that mode is shown. */
export function themeFor(mode: ColorMode): Theme {
  return (themes[mode] ??= createAppTheme(mode));
}
