import { sql } from 'kysely';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';

const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });

/**
 * How long one database check answers for. Load balancers and monitors poll this route, several
 * per instance; they all get an answer at most this old, and the database sees one query.
 */
export const HEALTH_CHECK_MAX_AGE_MS = 1000;

/** `select 1` at most once per HEALTH_CHECK_MAX_AGE_MS; callers meanwhile share the result. */
function databaseCheck(db: Database): (log: FastifyBaseLogger) => Promise<boolean> {
  let last: { at: number; result: Promise<boolean> } | null = null;
  return (log) => {
    const now = Date.now();
    if (last && now - last.at < HEALTH_CHECK_MAX_AGE_MS) return last.result;
    const result = sql`select 1`.execute(db).then(
      () => true,
      (err: unknown) => {
        log.error({ err }, 'health check: database unreachable');
        return false;
      },
    );
    last = { at: now, result };
    return result;
  };
}

export function healthRoutes(app: FastifyInstance, deps: { db: Database }): void {
  const databaseOk = databaseCheck(deps.db);
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/health',
      { config: { access: 'public' }, schema: { response: { 200: healthSchema } } },
      async (request) => {
        if (!(await databaseOk(request.log)))
          throw new AppError(503, 'database_unavailable', 'The database is not reachable.');
        return { status: 'ok' as const, database: 'ok' as const };
      },
    );
}
