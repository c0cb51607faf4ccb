import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { shouldRetry } from './query-client';

describe('query retries', () => {
  it('never retries client errors (4xx)', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) {
      expect(shouldRetry(0, new ApiError(status, 'x', 'x'))).toBe(false);
    }
  });

  it('retries server errors and network failures a couple of times', () => {
    expect(shouldRetry(0, new ApiError(503, 'x', 'x'))).toBe(true);
    expect(shouldRetry(1, new ApiError(0, 'network_error', 'x'))).toBe(true);
    expect(shouldRetry(2, new ApiError(500, 'x', 'x'))).toBe(false);
  });
});
