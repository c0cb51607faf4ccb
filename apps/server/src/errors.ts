/** The one error type services throw; the error handler turns it into `{ message, code, requestId }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthorized = (message = 'Please sign in to continue.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new AppError(403, 'forbidden', message);
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} was not found.`);
export const badRequest = (message: string, code = 'bad_request') =>
  new AppError(400, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);

/** The database cannot be reached (refused, reset, restarting): retried by the client shortly. */
export const databaseUnavailable = () =>
  new AppError(
    503,
    'database_unavailable',
    'The database cannot be reached right now. Try again in a moment.',
    { 'retry-after': '5' },
  );
