/**
 * A loader that runs `load` on its first call and hands that call and every later one the same
 * promise, for what is costly to make and needed by few requests (a module imported on first use,
 * a client made on the first request). A load that fails is forgotten, so the next call tries
 * again rather than failing for the life of the process.
 *
 * `settled()` answers what a finished load made, or null when nothing was loaded or the load
 * failed, without starting one (e.g. to close a client only if one was ever made).
 */
export interface LoadOnce<T> {
  (): Promise<T>;
  settled(): Promise<T | null>;
}

export function loadOnce<T>(load: () => Promise<T>): LoadOnce<T> {
  let pending: Promise<T> | null = null;
  const get = (): Promise<T> => {
    pending ??= load().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
  return Object.assign(get, {
    settled: (): Promise<T | null> => pending?.catch(() => null) ?? Promise.resolve(null),
  });
}
