import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadAllPages } from '@/app/lazy-page';
import '@/app/router';

// Files that opt into the node environment (e.g. the lint-zone test) have no DOM to set up.
const hasDom = typeof window !== 'undefined';

// Pages are lazily loaded chunks in the app; tests render them as soon as they are asked for.
beforeAll(async () => {
  if (hasDom) await preloadAllPages();
});

afterEach(() => {
  if (hasDom) {
    cleanup();
    window.localStorage.clear();
  }
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
