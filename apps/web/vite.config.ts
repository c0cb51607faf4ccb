import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Web test files that need a module registry of their own: upload-page sets the viewer's time
 * zone before the app's date formatters are made. They run isolated, in the `web-own-modules`
 * project (vitest.config.ts); the rest share one registry (`isolate: false` below).
 */
export const webTestsWithOwnModules = ['src/app/routes/upload-page.test.tsx'];

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

/** The password meter's word lists (~1.6 MB): a chunk of their own, left out of the precache. */
const ZXCVBN_DICTIONARIES_CHUNK = 'zxcvbn-dictionaries';

/*
 * The installable app: the manifest, and the service worker built from src/sw.ts with the
 * list of the build's files injected for precaching (README, design notes: "Installable app").
 * main.tsx registers it in production builds only.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src',
  filename: 'sw.ts',
  // Registered by main.tsx after the page has loaded, not by a script the plugin would add.
  injectRegister: false,
  manifest: {
    id: '/',
    name: 'Sitelog',
    short_name: 'Sitelog',
    description: 'Photo documentation for construction teams',
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    // The top bar's colour (app/theme.ts TOP_BAR_COLOR), as index.html's theme-color meta: the
    // window's title bar keeps one colour from the splash screen to the loaded app.
    theme_color: '#1C1917',
    // The page's background (theme.ts background.default, index.html's body).
    background_color: '#F5F5F4',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  // The icons are files of the build, precached by the glob below (listing them again would add
  // each twice).
  includeManifestIcons: false,
  injectManifest: {
    // The app shell: the page, every script and style, the fonts (browsers with service workers
    // all take woff2) and the icons. Nothing under /api or /media is a file of the build.
    globPatterns: ['**/*.{html,js,css,woff2,svg,png}'],
    // The password meter is advice and works only online anyway (a password change needs the
    // server); its dictionaries would triple the precache.
    globIgnores: [`assets/${ZXCVBN_DICTIONARIES_CHUNK}-*.js`],
    // A classic worker, which every browser with service workers runs (module workers are
    // newer); src/sw.ts and what it imports are bundled into this one file.
    rollupFormat: 'iife',
  },
});

/*
 * Each text file of the build also as `.br` (brotli at its best quality, 11) and `.gz` (gzip 9),
 * made once here and sent as they are by the server (@fastify/static `preCompressed`), where
 * compressing on the fly would cost CPU on every request and reach only brotli 4 (README, design
 * notes, "Per-request cost"; bench/web-files.ts). From 1 KB, the server's own threshold for them.
 */
const precompressed = compression({
  include: /\.(js|css|html|svg|json|webmanifest)$/,
  threshold: 1024,
  skipIfLargerOrEqual: true,
  logLevel: 'silent',
  algorithms: [
    defineAlgorithm('brotliCompress', {
      params: {
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      },
    }),
    defineAlgorithm('gzip', { level: zlib.Z_BEST_COMPRESSION }),
  ],
});

export default defineConfig({
  plugins: [react(), muiWithoutCssVariables(), pwa, precompressed],
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
              // Before the shell's groups, which would otherwise take React too.
              priority: 2,
            },
            /*
             * The rest of the first download, the modules index.html reaches through static
             * imports (Rolldown's `$initial` tag; pages and the shell's lazy parts are not in
             * it), in two files: the libraries (MUI, emotion, TanStack Query), which change with
             * upgrades, and the app's own code, which becomes the entry's file since it holds
             * the entry. Left to the automatic splitting, the shell's modules that pages also
             * use (ButtonBase, Box, the query observer…) stayed in the entry only while Rolldown
             * could merge them there, which depends on the whole module graph: issue 15's pages
             * (e.g. a page-only module re-exported by `@sitelog/shared`, which the shell imports
             * lazily) cut the first download from 11 files into 25, ≈ 5 KiB gzip of overhead
             * (bench/README.md, "Web bundle").
             */
            { name: 'shell-libs', tags: ['$initial'], test: /node_modules[\\/]/, priority: 1 },
            { name: 'shell', tags: ['$initial'], priority: 1 },
            /*
             * Home, the first page of a signed-in visit, with everything it needs beyond the
             * shell (its sections, tiles, MUI parts, icons, `@sitelog/shared` with zod) in one
             * file: a group takes its modules' dependencies along. Split automatically, Home came
             * in 31 files after the shell, about 6 rounds of requests on a phone's HTTP/1.1
             * connections before the first tile could be drawn (Lighthouse, bench/README.md).
             * Pages that share a module with Home load this file too; it is the one most visits
             * have in the cache already.
             */
            { name: 'home', test: /src[\\/]app[\\/]routes[\\/]home-page\.tsx$/ },
            // Named so the service worker's precache can leave it out (see `pwa`).
            {
              name: ZXCVBN_DICTIONARIES_CHUNK,
              test: /node_modules[\\/]@zxcvbn-ts[\\/]language-/,
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
    exclude: [...configDefaults.exclude, ...webTestsWithOwnModules],
    setupFiles: ['./src/test/setup.ts'],
    // Whole-app renders with MUI take a few seconds on a busy 2-core machine, and up to 7× that
    // in CI beside the browser suite (the uploader's first test: 4.3 s alone, over 30 s there on
    // 2026-11-28); findBy waits up to 10 s (src/test/setup.ts). A limit, not an expectation.
    testTimeout: 60_000,
    // One file at a time: these tests are CPU-bound (jsdom), so two at once on 2 cores gained
    // 874 -> 750 s in a CI run and timed out a hook (the upload queue's IndexedDB close) there.
    maxWorkers: 1,
    /*
     * The files share one module registry: every file imports the whole app (the setup preloads
     * every page), which took about 4 s per file, 229 of 632 s. The setup's afterEach resets
     * what the app keeps between renders (the DOM, localStorage, IndexedDB, the upload queue,
     * stubs and mocks). A file that must load the app its own way (a time zone set before the
     * date formatters are made) is listed in webTestsWithOwnModules and runs isolated, in the
     * `web-own-modules` project (vitest.config.ts).
     */
    isolate: false,
  },
});
