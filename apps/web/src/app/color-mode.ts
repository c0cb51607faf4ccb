import { useSyncExternalStore } from 'react';
import type { ColorMode } from './theme';

/*
 * Light or dark: the system's choice (`prefers-color-scheme`) unless the user picked one in the
 * profile menu, which this device remembers. MUI's own colour-scheme machinery (colorSchemes,
 * useColorScheme) needs its CSS-variables theme builder, ~7 KiB gzip more in the first download
 * (vite.config.ts leaves it out); two plain themes and this store do the same here. The first
 * render already has the right mode (main.tsx renders after this module has read the choice).
 */

export type ColorModePreference = 'system' | ColorMode;

export const COLOR_MODE_KEY = 'sitelog.colorMode';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The choice, when localStorage refuses to keep it (a private window that forbids it). */
let unstored: ColorModePreference | null = null;
const listeners = new Set<() => void>();

/** The stored choice; 'system' when none. */
export function getColorModePreference(): ColorModePreference {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(COLOR_MODE_KEY);
  } catch {
    // Unreadable storage: the system's mode, or what was picked in this page.
  }
  return unstored ?? (stored === 'light' || stored === 'dark' ? stored : 'system');
}

/** Remembers the choice on this device ('system' forgets it) and re-renders every user. */
export function setColorModePreference(preference: ColorModePreference): void {
  unstored = null;
  try {
    if (preference === 'system') window.localStorage.removeItem(COLOR_MODE_KEY);
    else window.localStorage.setItem(COLOR_MODE_KEY, preference);
  } catch {
    unstored = preference;
  }
  for (const listener of listeners) listener();
}

/** Follows picks made here and, through the storage event, in the app's other tabs. */
function subscribePreference(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The system's colour scheme query; null where the browser (or jsdom) has no matchMedia. */
const darkQuery = () =>
  typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;

function subscribeSystem(onChange: () => void): () => void {
  const query = darkQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

const systemPrefersDark = () => darkQuery()?.matches ?? false;

/** The user's choice: System, Light or Dark. */
export function useColorModePreference(): ColorModePreference {
  return useSyncExternalStore(subscribePreference, getColorModePreference, () => 'system');
}

/** The mode shown now: the choice, or the system's when the choice is System. */
export function useColorMode(): ColorMode {
  const preference = useColorModePreference();
  const systemDark = useSyncExternalStore(subscribeSystem, systemPrefersDark, () => false);
  if (preference !== 'system') return preference;
  return systemDark ? 'dark' : 'light';
}
