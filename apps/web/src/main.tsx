// Latin and Latin Extended only (names like Łukasz or Şahin): the Cyrillic, Greek and
// Vietnamese faces made the render-blocking stylesheet 4× larger for text the app never shows.
// Each face is fetched only when a glyph in its unicode-range is drawn, with font-display: swap.
// Latin comes last, as in the all-subsets files: Chromium takes the ellipsis of a cut-off line
// from the last face declared, and only the Latin one has "…" (else it draws "...").
import '@fontsource/roboto/latin-ext-400.css';
import '@fontsource/roboto/latin-ext-500.css';
import '@fontsource/roboto/latin-ext-700.css';
import '@fontsource/roboto/latin-400.css';
import '@fontsource/roboto/latin-500.css';
import '@fontsource/roboto/latin-700.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { AppRouter, preloadFirstPage } from './app/router';
import { getSession } from './lib/session';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

const queryClient = createQueryClient();
// A signed-in user's first page is known now: fetch its code alongside React's first render.
// (Signed out, every page but the login page redirects, so nothing is fetched ahead.)
if (getSession()) preloadFirstPage(window.location.pathname);

const root = createRoot(container);
// As a transition the first render is time-sliced: React yields to the browser every few
// milliseconds instead of holding the main thread for the whole shell (input stays responsive
// on slow phones, and Lighthouse's Total Blocking Time counts no long task for it).
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
});

// The service worker (src/sw.ts: the app shell for offline use) in production builds only; in
// development Vite serves source modules the worker has no list of. Registered once the page
// has loaded, so its first install, which downloads the whole app, never competes with it.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // Without it the app works as before, online only.
    });
  });
}
