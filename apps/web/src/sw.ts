/// <reference lib="webworker" />
/*
 * The service worker (issue 12, "Installable app"). vite-plugin-pwa bundles this file and what it
 * imports into dist/sw.js (a classic worker: vite.config.ts `pwa`) and puts the build's file list
 * where `self.__WB_MANIFEST` stands. Typechecked by tsconfig.sw.json, with the worker's types.
 *
 * What it keeps: the app shell only (index.html, scripts, styles, fonts, icons), so the app opens
 * without a signal. It never stores an answer from /api or a file from /media: user data must
 * not outlive a logout or show to the next person on a shared phone. Requests it has no route
 * for (all of /api and /media) go to the network as if there were no worker.
 */
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { SYNC_TAG, sendQueueInBackground } from './features/uploads/queue/background-sync';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<PrecacheEntry | string>;
};

/** The page every client route is (the server answers them all with it). */
const APP_SHELL = '/index.html';

/**
 * How long a navigation waits for the network before the stored shell is shown. A phone with
 * one bar of signal may never answer; the shell with its offline states is better than a blank
 * page.
 */
const NAVIGATION_TIMEOUT_MS = 4_000;

/**
 * Paths the server does not answer with the app (as its not-found handler decides): the API and
 * its docs, media, the build's files, and anything with a file extension.
 */
const NOT_APP_PAGES = [
  /^\/api(\/|$)/,
  /^\/media(\/|$)/,
  /^\/assets\//,
  // Matched against the path and query: a dot in a query (/search?q=v1.2) is still a page.
  /\/[^/?]+\.[a-z0-9]+(\?|$)/i,
];

// A new build takes over at once instead of waiting for every tab to close; the pages it takes
// over load the current index.html from the network (below), so they never mix two builds'
// files.
void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
// No `directoryIndex`: `/` (the installed app's start URL) is a page like any other, taken
// network-first below; Workbox would otherwise answer it from the precache, the previous
// build's shell after a deploy.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '' });

/**
 * Pages: the network first (the server's index.html names the current build's files), the
 * precached shell when there is no answer within NAVIGATION_TIMEOUT_MS or the server (or a proxy
 * in front of it) is failing.
 */
async function appPage({ request }: { request: Request }): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), NAVIGATION_TIMEOUT_MS);
  let answer: Response | undefined;
  try {
    answer = await fetch(request, { signal: timeout.signal });
    if (answer.status < 500) return answer;
  } catch {
    // Offline, refused or timed out: the shell below.
  } finally {
    clearTimeout(timer);
  }
  const shell = await matchPrecache(APP_SHELL);
  if (shell) return shell;
  return answer ?? Response.error();
}

registerRoute(new NavigationRoute(appPage, { denylist: NOT_APP_PAGES }));

/**
 * Background Sync (issue 12, "Never lose a photo"): a page that queued photos registers the
 * queue's sync tag; the browser fires it when there is signal, also after the app was closed, and
 * fires it again later while this rejects (photos still waiting, or a visible page of the app
 * sending them itself). Should both send anyway (a page made visible meanwhile), per-photo Web
 * Locks keep them from sending one photo at once, and the idempotency key makes even that
 * harmless.
 */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/** Whether a page of the app is open and visible (it sends the queue itself, with progress). */
async function appOpen(): Promise<boolean> {
  const pages = await self.clients.matchAll({ type: 'window' });
  return pages.some((page) => page.visibilityState === 'visible');
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== SYNC_TAG) return;
  sync.waitUntil(appOpen().then((open) => sendQueueInBackground({ appOpen: open })));
});
