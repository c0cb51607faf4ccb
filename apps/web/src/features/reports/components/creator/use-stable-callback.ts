import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A callback that keeps one identity and always calls the latest `fn`, so memoised rows and
 * tiles are not all drawn again when one caption changes, also with hundreds of photos.
 */
export function useStableCallback<A extends unknown[]>(
  fn: (...args: A) => void,
): (...args: A) => void {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
