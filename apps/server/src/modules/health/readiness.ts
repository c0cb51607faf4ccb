/**
 * Whether this instance takes new work. main.ts sets `draining` when asked to stop (SIGTERM,
 * SIGINT): from then on the health check answers 503 `draining`, so a load balancer polling it
 * sends new requests elsewhere, and every answer closes its connection.
 */
export interface Readiness {
  draining: boolean;
}

export function createReadiness(): Readiness {
  return { draining: false };
}
