import { useSyncExternalStore } from 'react';

/*
 * The browser's online state: `navigator.onLine`, and its `online` and `offline` events. The
 * query client follows the same source (app/query-client.ts), so what the screens say (the
 * offline banner and states) matches what the queries do: offline they pause, and they resume
 * when the connection returns.
 */

/** Calls `onChange` whenever the browser goes online or offline; returns the unsubscribe. */
export function subscribeToOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Whether the browser has a network connection. `false` is certain (no network at all); `true`
 * may still be a connection that reaches nothing, which requests find out by failing.
 */
export const isOnline = (): boolean => navigator.onLine;

/** Whether the app is online; the component re-renders when that changes. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeToOnline, isOnline, () => true);
}
