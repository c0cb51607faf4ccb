import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useColorMode } from './color-mode';
import { SessionProvider } from './session-provider';
import { themeFor } from './theme';

/** The theme in the colour mode of the moment (system or the user's pick). */
function ColorModeThemeProvider({ children }: { children: ReactNode }) {
  const mode = useColorMode();
  return (
    <ThemeProvider theme={themeFor(mode)}>
      {/* color-scheme on <html>: scrollbars and native controls follow the mode too. */}
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}

/** Theme, server-state cache and session, around the router. */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <ColorModeThemeProvider>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>{children}</SessionProvider>
      </QueryClientProvider>
    </ColorModeThemeProvider>
  );
}
