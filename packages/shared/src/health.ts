import { z } from 'zod';

/**
 * `GET /api/health`, for load balancers and monitors: 200 when this instance can serve, with
 * what was checked. Any other answer is a 503 in the standard error shape whose `code` is one of
 * `healthFailureCodes`.
 */
export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  storage: z.literal('ok'),
});
export type Health = z.infer<typeof healthSchema>;

/**
 * Why an instance answers 503: it is shutting down (`draining`: the balancer should send new
 * requests elsewhere), or its database or media storage cannot be reached.
 */
export const healthFailureCodes = [
  'draining',
  'database_unavailable',
  'storage_unavailable',
] as const;
export type HealthFailureCode = (typeof healthFailureCodes)[number];
