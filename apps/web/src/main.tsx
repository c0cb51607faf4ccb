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
import { StrictMode } from 'react';
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

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
