import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

const MAX_RETRIES = 2;

/** Retrying cannot fix a client error (4xx: bad input, signed out, not allowed, missing). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 30_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
