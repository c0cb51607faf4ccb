import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { isOnline, subscribeToOnline } from '@/lib/use-online';

const MAX_RETRIES = 2;

/** Retrying cannot fix a client error (4xx: bad input, signed out, not allowed, missing). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < MAX_RETRIES;
}

/**
 * Queries pause while the browser is offline and resume when it is back, from the start. By
 * default TanStack Query assumes it is online until an `offline` event, so an app opened with no
 * signal (from the service worker) would send every query and show each failure instead of the
 * offline state. The same source as useOnline, so the screens and the queries agree.
 */
function followBrowserOnlineState(): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(isOnline());
    return subscribeToOnline(() => setOnline(isOnline()));
  });
}

interface QueryClientOptions {
  /**
   * Milliseconds before each retry of a failed query. By default TanStack Query's backoff (1 s,
   * then 2 s); the web tests shorten it (src/test/query-client.ts): the same retries, without
   * three seconds of waiting in every test of a failed load.
   */
  retryDelay?: number;
}

export function createQueryClient({ retryDelay }: QueryClientOptions = {}): QueryClient {
  followBrowserOnlineState();
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        ...(retryDelay === undefined ? {} : { retryDelay }),
        staleTime: 30_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
