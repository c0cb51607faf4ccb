import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react';
import { cleanup, configure, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { preloadAllPages } from '@/app/lazy-page';
import '@/app/router';
import { closeQueueDb } from '@/features/uploads/queue/queue-db';
import { stopUploadQueue } from '@/features/uploads/queue/runtime';

/*
 * Every test renders pages with the router, layout and MUI on a shared 2-core machine, and in CI
 * beside the browser suite, where one render took up to 5× its time alone (a feed of 48 tiles:
 * 2.4 s alone, 11.4 s there). findBy and waitFor wait up to 10 s before calling something
 * missing, in every file alike: set here, not per file, since files share one module registry
 * (isolate: false) and a per-file setting held for whichever file ran after it.
 */
configure({ asyncUtilTimeout: 10_000 });

// Files that opt into the node environment (e.g. the lint-zone test) have no DOM to set up.
const hasDom = typeof window !== 'undefined';

// Pages are lazily loaded chunks in the app; tests render them as soon as they are asked for.
beforeAll(async () => {
  if (hasDom) await preloadAllPages();
});

/*
 * IndexedDB (the upload queue) from fake-indexeddb. Its structured clone is Node's, which cannot
 * copy jsdom's Blob and File; Blobs are immutable, so the clone keeps them by reference, as
 * a browser keeps the same bytes.
 */
if (hasDom) {
  const nodeClone = globalThis.structuredClone;
  const cloneKeepingBlobs = (value: unknown): unknown => {
    if (value instanceof Blob) return value;
    if (Array.isArray(value)) return value.map(cloneKeepingBlobs);
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, cloneKeepingBlobs(item)]),
      );
    return nodeClone(value);
  };
  globalThis.structuredClone = <T>(value: T): T => cloneKeepingBlobs(value) as T;
}

beforeEach(async () => {
  await closeQueueDb();
  globalThis.indexedDB = new IDBFactory();
});

/**
 * The styles MUI's components insert (Emotion's default cache: a <style> per rule in the head).
 * The files share one document (isolate: false), so without a reset they pile up, over 2,000
 * after four files, and jsdom's getComputedStyle, which matches every rule each time it is
 * called (MUI's TextareaAutosize calls it on each render, Testing Library's role and name
 * queries on each element), grew slower with every file. After each test they are removed and
 * the cache forgets them, so the next render inserts its own, as on a freshly opened page.
 */
let emotionCache: EmotionCache | null = null;
if (hasDom) {
  const CaptureCache = () => {
    emotionCache = __unsafe_useEmotionCache();
    return null;
  };
  render(createElement(CaptureCache));
  cleanup();
}

function resetEmotionStyles() {
  if (!emotionCache) return;
  emotionCache.sheet.flush();
  emotionCache.inserted = {};
}

afterEach(() => {
  stopUploadQueue();
  if (hasDom) {
    cleanup();
    resetEmotionStyles();
    window.localStorage.clear();
  }
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
