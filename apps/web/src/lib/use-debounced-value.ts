import { useEffect, useState } from 'react';

/**
 * `value`, once it has stopped changing for `delayMs` (so a search runs per pause, not per key).
 * Until the first pause it is `initial` (the value itself unless given): a type-ahead mounted by
 * the second typed character passes the empty text, so it waits for a pause before its first
 * request too.
 */
export function useDebouncedValue<T>(value: T, delayMs: number, initial: T = value): T {
  const [debounced, setDebounced] = useState(initial);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
