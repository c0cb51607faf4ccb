import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';

const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });

export function healthRoutes(app: FastifyInstance, deps: { db: Database }): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/health',
      { config: { access: 'public' }, schema: { response: { 200: healthSchema } } },
      async (request) => {
        try {
          await sql`select 1`.execute(deps.db);
        } catch (err) {
          request.log.error({ err }, 'health check: database unreachable');
          throw new AppError(503, 'database_unavailable', 'The database is not reachable.');
        }
        return { status: 'ok' as const, database: 'ok' as const };
      },
    );
}
