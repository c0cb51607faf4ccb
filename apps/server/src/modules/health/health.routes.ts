import { errorResponseSchema, healthSchema, type Health } from '@sitelog/shared';
import { sql } from 'kysely';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../../db/database.js';
import { outageReason } from '../../db/database-errors.js';
import { AppError, databaseUnavailable } from '../../errors.js';
import type { Storage } from '../../media/storage/index.js';
import type { Readiness } from './readiness.js';

/**
 * How long one database check answers for. Load balancers and monitors poll this route, several
 * per instance; they all get an answer at most this old, and the database sees one query.
 */
export const HEALTH_CHECK_MAX_AGE_MS = 1000;

/** The same for the storage: a bucket's HeadBucket is slower and billed, so asked less often. */
export const STORAGE_CHECK_MAX_AGE_MS = 5000;

type Probe = (log: FastifyBaseLogger) => Promise<boolean>;
/** A check's answer: known (the last probe's, still fresh) or on its way. */
type Check = (log: FastifyBaseLogger) => boolean | Promise<boolean>;

/** A probe still running after this long is given up on, and the next poll asks anew. */
const STALLED_RETRY_MS = 10_000;

/**
 * Runs `probe` at most once per `maxAgeMs`; callers meanwhile share its result, so a burst of
 * polls costs one probe and no exception on the happy path. A settled result is answered as it
 * is (this runs on every poll: no timer, no promise); a probe still running is waited for, but
 * for at most `timeoutMs` when given (false, logged, after that: see `withinTime`).
 */
function cachedCheck(
  maxAgeMs: number,
  probe: Probe,
  limit?: { timeoutMs: number; what: string },
): Check {
  let last: { at: number; result: Promise<boolean>; value: boolean | undefined } | null = null;
  return (log) => {
    const now = Date.now();
    if (last && now - last.at < maxAgeMs && last.value !== undefined) return last.value;
    // A probe that has not come back (a connection the network silently dropped) is not asked
    // again beside it for a while: the polls share it, each answered "unreachable" once it takes
    // too long (withinTime), so stalled probes cannot pile up on the pool.
    let entry = last;
    if (
      !entry ||
      (now - entry.at >= maxAgeMs &&
        (entry.value !== undefined || now - entry.at >= STALLED_RETRY_MS))
    ) {
      const started = { at: now, value: undefined as boolean | undefined, result: probe(log) };
      void started.result.then((value) => {
        started.value = value;
      });
      entry = last = started;
    }
    if (!limit) return entry.result;
    const { timeoutMs, what } = limit;
    return withinTime(entry.result, timeoutMs, () =>
      log.warn(`health check: ${what} did not answer within ${timeoutMs} ms`),
    );
  };
}

/** How long a database probe may take before the instance reports it unreachable. */
export const DATABASE_CHECK_TIMEOUT_MS = 2500;

/** `result`, or false (after `onLate`) once it has taken `ms`, for callers that cannot wait. */
function withinTime(result: Promise<boolean>, ms: number, onLate: () => void): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      onLate();
      resolve(false);
    }, ms);
  });
  return Promise.race([result, late]).finally(() => clearTimeout(timer));
}

const databaseCheck = (db: Database): Check =>
  cachedCheck(
    HEALTH_CHECK_MAX_AGE_MS,
    (log) =>
      sql`select 1`.execute(db).then(
        () => true,
        (err: unknown) => {
          // No stack: while the database is away every poll fails the same way.
          log.warn({ reason: outageReason(err) }, 'health check: database unreachable');
          return false;
        },
      ),
    { timeoutMs: DATABASE_CHECK_TIMEOUT_MS, what: 'the database' },
  );

const storageCheck = (storage: Storage): Check =>
  cachedCheck(STORAGE_CHECK_MAX_AGE_MS, (log) =>
    storage.check().then(
      () => true,
      (err: unknown) => {
        log.warn({ err }, 'health check: storage unreachable');
        return false;
      },
    ),
  );

const OK: Health = Object.freeze({ status: 'ok', database: 'ok', storage: 'ok' });

/** The checks' results as the route's answer: OK, or the 503 of the first that failed. */
function healthAnswer(database: boolean, storage: boolean): Health {
  if (!database) throw databaseUnavailable();
  if (!storage)
    throw new AppError(
      503,
      'storage_unavailable',
      'Photo storage cannot be reached right now. Try again in a moment.',
    );
  return OK;
}

export function healthRoutes(
  app: FastifyInstance,
  deps: { db: Database; storage: Storage; readiness: Readiness },
): void {
  const { readiness } = deps;
  const databaseOk = databaseCheck(deps.db);
  const storageOk = storageCheck(deps.storage);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { response: { 200: healthSchema, 503: errorResponseSchema } },
    },
    (request) => {
      if (readiness.draining)
        throw new AppError(
          503,
          'draining',
          'This instance is shutting down; the load balancer should send requests to another one.',
        );
      // Both asked at once when both are due; each answers from its cache otherwise.
      const database = databaseOk(request.log);
      const storage = storageOk(request.log);
      // The usual poll: both known, answered at once (no promise, no microtask).
      if (typeof database === 'boolean' && typeof storage === 'boolean')
        return healthAnswer(database, storage);
      return Promise.all([database, storage]).then(([db, store]) => healthAnswer(db, store));
    },
  );
}
