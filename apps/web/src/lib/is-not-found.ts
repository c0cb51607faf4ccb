import { ApiError } from '@/lib/api-client';

/** The server said the thing does not exist (404), as opposed to a failure worth retrying. */
export const isNotFound = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 404;
