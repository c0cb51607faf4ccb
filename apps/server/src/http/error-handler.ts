import type { FastifyError, FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, outageReason } from '../db/database-errors.js';
import { AppError, databaseUnavailable } from '../errors.js';

function describeZodPath(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.') || 'body';
}

/**
 * The one place errors become responses: `{ message, code, requestId }` (+ `details` on 400).
 * A lost database connection is a 503 `database_unavailable` with `Retry-After` (the pool
 * reconnects by itself); other unknown errors are logged and answered with a generic 500, never
 * a stack trace.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    const requestId = request.id;
    if (err instanceof AppError) {
      // A refusal caused by the server's state (a full disk, an unreachable bucket) is for the
      // operator to see too; a busy queue's 503 is routine under load, and a draining instance's
      // health answer is expected while it stops: both stay out of the log.
      if (err.statusCode >= 500 && err.code !== 'busy' && err.code !== 'draining')
        request.log.warn({ err: err.cause ?? err }, err.message);
      void reply.headers(err.headers);
      return reply.status(err.statusCode).send({ message: err.message, code: err.code, requestId });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        path: describeZodPath(v.instancePath),
        message: v.message ?? 'Invalid value.',
      }));
      const first = details[0];
      const message = first ? first.message : 'The request is not valid.';
      return reply.status(400).send({ message, code: 'validation_failed', requestId, details });
    }
    // An error Fastify already classed as the client's (a body aborted mid-way: ECONNRESET) is
    // not a database outage, whatever its code.
    const clientError =
      'statusCode' in err &&
      typeof err.statusCode === 'number' &&
      err.statusCode >= 400 &&
      err.statusCode < 500;
    if (!clientError && isDatabaseUnavailable(err)) {
      // One line per request, no stack: under an outage every request fails the same way.
      request.log.warn({ reason: outageReason(err) }, 'database unavailable');
      const refusal = databaseUnavailable();
      void reply.headers(refusal.headers);
      return reply
        .status(refusal.statusCode)
        .send({ message: refusal.message, code: refusal.code, requestId });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ message: 'Something went wrong on our side.', code: 'internal', requestId });
    }
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = 'code' in err && typeof err.code === 'string' ? err.code : 'bad_request';
      return reply
        .status(status)
        .send({ message: friendlyClientError(err, status), code: code.toLowerCase(), requestId });
    }
    request.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ message: 'Something went wrong on our side.', code: 'internal', requestId });
  });
}

function friendlyClientError(err: Error, status: number): string {
  const code = 'code' in err ? String(err.code) : '';
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'The request is too large.';
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'That content type is not supported here.';
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'The request body is empty.';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError')
    return 'The request body is not valid JSON.';
  return err.message;
}
