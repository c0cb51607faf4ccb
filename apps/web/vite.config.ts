import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const apiServer = 'http://127.0.0.1:3000';

/*
 * MUI's createTheme and ThemeProvider import the CSS-variables theme builder and provider
 * statically, though they call them only for a theme made with `cssVariables` or
 * `colorSchemes`. The app's theme (app/theme.ts) has neither, so they are replaced by a stub
 * that says so if it is ever called: about 7 KiB gzip less in the first download.
 */
function muiWithoutCssVariables(): Plugin {
  const stub = '\0mui-without-css-variables';
  const importers =
    /[\\/]@mui[\\/]material[\\/]esm[\\/]styles[\\/](createTheme|ThemeProvider)\.js$/;
  return {
    name: 'mui-without-css-variables',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        importer &&
        importers.test(importer) &&
        /^\.\/(createThemeWithVars|ThemeProviderWithVars)\.js$/.test(source)
      )
        return stub;
      return null;
    },
    load(id) {
      if (id !== stub) return null;
      return [
        'const unsupported = () => {',
        "  throw new Error('The MUI theme uses CSS variables, which vite.config.ts leaves out.');",
        '};',
        'export default unsupported;',
        'export const CssVarsProvider = unsupported;',
      ].join('\n');
    },
  };
}

export default defineConfig({
  plugins: [react(), muiWithoutCssVariables()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': apiServer,
      '/media': apiServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // React and the router change less often than the app and every page needs them, so
        // they get a file of their own that stays cached across releases. Everything else
        // (MUI components, forms, zod) is split by the pages that use it: forcing all of
        // node_modules into one eagerly preloaded vendor file put every page's libraries in
        // front of the first render.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Whole-app renders with MUI take a few seconds on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
