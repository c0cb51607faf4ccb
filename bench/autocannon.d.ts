// The part of autocannon's API that bench/load-worker.ts uses (the package ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path: string;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Request[];
    method?: string;
    body?: Buffer;
    /** Requests in all, then stop (instead of `duration`). */
    amount?: number;
    /** Seconds a request may take before it counts as a timeout (10 when absent). */
    timeout?: number;
    /** Milliseconds between samples (1,000 when absent); a run stops only at a sample. */
    sampleInt?: number;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
