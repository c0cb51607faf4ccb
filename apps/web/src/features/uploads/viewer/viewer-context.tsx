import type { Upload } from '@sitelog/shared';
import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { PHOTO_PARAM } from './photo-param';

export { PHOTO_PARAM };

/** What a feed offers the viewer: its photos so far, and how to fetch more at the end. */
export interface ViewerSequence {
  uploads: readonly Upload[];
  hasMore: boolean;
  loadMore: () => void;
}

/**
 * The feeds on screen, so the one viewer (mounted once by the layout) can page through the feed
 * a photo was opened from. Feeds register themselves; nothing here fetches.
 */
class ViewerRegistry {
  private readonly sequences = new Map<string, ViewerSequence>();
  /** The feed the last photo was opened from, so prev/next walk that feed. */
  private active: string | null = null;
  private readonly listeners = new Set<() => void>();
  private version = 0;

  offer(key: string, sequence: ViewerSequence) {
    this.sequences.set(key, sequence);
    this.changed();
  }

  withdraw(key: string) {
    this.sequences.delete(key);
    this.changed();
  }

  activate(key: string | null) {
    this.active = key;
  }

  /** The active feed if it holds the photo, else any feed on screen that does. */
  sequenceOf(photoId: number): ViewerSequence | null {
    const holds = (s: ViewerSequence | undefined) => s?.uploads.some((u) => u.id === photoId);
    const active = this.active ? this.sequences.get(this.active) : undefined;
    if (active && holds(active)) return active;
    for (const candidate of this.sequences.values()) if (holds(candidate)) return candidate;
    return null;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  private changed() {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The app's one registry: a module of its own rather than a context, so the shell that mounts
 * the viewer does not carry it in the first download (feeds and the viewer's chunk import it).
 */
const registry = new ViewerRegistry();

/** Offers a feed's photos to the viewer while the feed is on screen. */
export function useViewerSequence(key: string, sequence: ViewerSequence): void {
  const { uploads, hasMore, loadMore } = sequence;
  useEffect(() => {
    registry.offer(key, { uploads, hasMore, loadMore });
  }, [key, uploads, hasMore, loadMore]);
  useEffect(() => () => registry.withdraw(key), [key]);
}

/** The current page's path and search without the `photo` parameter. */
export interface PageWithoutPhoto {
  pathname: string;
  search: string;
}

/** The current page without its `photo` (stable while only the photo shown changes). */
export function usePageWithoutPhoto(): PageWithoutPhoto {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  params.delete(PHOTO_PARAM);
  const rest = params.toString();
  return useMemo(() => ({ pathname, search: rest ? `?${rest}` : '' }), [pathname, rest]);
}

/** The URL of the current page with `photo` set to `id` (other parameters kept). */
export function photoHref(location: Pick<Location, 'pathname' | 'search'>, id: number): string {
  const params = new URLSearchParams(location.search);
  params.set(PHOTO_PARAM, String(id));
  return `${location.pathname}?${params.toString()}`;
}

interface ViewerHistoryState {
  /** Set when the viewer was opened from this page, so closing it is a step back. */
  photoViewer?: true;
}

/** Opens a photo full screen on the current page, remembering the feed it came from. */
export function useOpenPhoto(): (id: number, sequenceKey?: string) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (id: number, sequenceKey?: string) => {
      registry.activate(sequenceKey ?? null);
      const state: ViewerHistoryState = { photoViewer: true };
      void navigate(photoHref(location, id), { state });
    },
    [navigate, location],
  );
}

/** Marks the feed a tile belongs to as the one to page through (for a tile's own link click). */
export function useSetActiveSequence(): (key: string) => void {
  return useCallback((key: string) => registry.activate(key), []);
}

export interface PhotoViewerState {
  /** The photo in the URL, or null when the viewer is closed. */
  photoId: number | null;
  /** The URL names a photo in a way no id is spelled (`?photo=abc`): say it is not found. */
  invalid: boolean;
  /** The feed it belongs to, if one on screen holds it. */
  sequence: ViewerSequence | null;
  /** Shows another photo in place (the URL follows; Back still closes the viewer). */
  show: (id: number) => void;
  /** Closes the viewer: a step back if it was opened here, else the parameter is dropped. */
  close: () => void;
}

/** The router's key of the current history entry (React Router keeps it in `history.state`). */
const historyKey = (): unknown => (window.history.state as { key?: unknown } | null)?.key;

/** How long the address bar waits for the keys to stop before it names the photo shown. */
const URL_SETTLE_MS = 150;

const photoIdOf = (value: string | null): number | null => {
  if (value === null || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : null;
};

/**
 * For the viewer's host: which photo the URL shows and the feed around it.
 *
 * Moving between photos inside the viewer writes the address bar directly
 * (`history.replaceState`, keeping the router's entry state), not through the router: a router
 * navigation re-renders the whole page under the viewer for every photo, which cost a visible
 * pause per key press. The router still sees every other change: a link or Back that names
 * another photo, or none, resets what is shown.
 */
export function usePhotoViewerState(): PhotoViewerState {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const raw = params.get(PHOTO_PARAM);
  const routed = photoIdOf(raw);
  // The photo moved to inside the viewer, for the URL the router last saw (`location.key`).
  const [moved, setMoved] = useState<{ key: string; id: number } | null>(null);
  const photoId = routed !== null && moved?.key === location.key ? moved.id : routed;
  const version = useSyncExternalStore(registry.subscribe, registry.getVersion);
  const sequence = useMemo(
    () => (photoId === null ? null : registry.sequenceOf(photoId)),
    // `version` moves whenever a feed on screen offers other photos.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [photoId, version],
  );

  const historyState = location.state as ViewerHistoryState | null;
  const openedHere = historyState?.photoViewer === true;
  // The new photo is drawn by the lightbox first; the info panel and the address bar follow:
  // the panel as a transition, the URL once the keys stop (writing it costs several ms a time).
  const pendingUrl = useRef<{ timer: number; write: () => void } | undefined>(undefined);
  const flushUrl = useCallback(() => {
    const pending = pendingUrl.current;
    pendingUrl.current = undefined;
    if (!pending) return;
    window.clearTimeout(pending.timer);
    pending.write();
  }, []);
  // Any navigation the router sees (Back, a link in the info panel) makes a pending write moot;
  // the write itself also checks that it is still on the entry it was meant for.
  useEffect(() => {
    const pending = pendingUrl.current;
    pendingUrl.current = undefined;
    if (pending) window.clearTimeout(pending.timer);
  }, [location.key]);
  useEffect(() => () => window.clearTimeout(pendingUrl.current?.timer), []);
  const show = useCallback(
    (id: number) => {
      startTransition(() => setMoved({ key: location.key, id }));
      const entry = historyKey();
      const write = () => {
        if (historyKey() !== entry) return;
        window.history.replaceState(window.history.state, '', photoHref(window.location, id));
      };
      window.clearTimeout(pendingUrl.current?.timer);
      pendingUrl.current = { timer: window.setTimeout(flushUrl, URL_SETTLE_MS), write };
    },
    [location.key, flushUrl],
  );
  const close = useCallback(() => {
    // The entry left behind names the photo last shown, so Forward comes back to it.
    flushUrl();
    if (openedHere) {
      void navigate(-1);
      return;
    }
    const next = new URLSearchParams(location.search);
    next.delete(PHOTO_PARAM);
    const search = next.toString();
    void navigate(`${location.pathname}${search ? `?${search}` : ''}`, { replace: true });
  }, [flushUrl, openedHere, navigate, location]);

  return { photoId, invalid: raw !== null && routed === null, sequence, show, close };
}
