/**
 * The load generator of the HTTP rows, in its own process (bench/http.ts starts it pinned to
 * another core than the server): receives load jobs over IPC, runs each (autocannon for
 * throughput, a paced sender for latency at a fixed rate) and answers the figures. Not meant
 * to be run by hand.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Sent with every request. */
  headers: Record<string, string>;
  /** Paths each connection cycles through (a page's calls); `url` alone when absent. */
  paths?: string[];
  /**
   * Requests each connection cycles through, each with headers of its own on top of `headers`
   * (many members' tokens); instead of `paths`. Throughput runs only.
   */
  requests?: { path: string; headers: Record<string, string> }[];
  /** A fixed request rate over all connections (for latency percentiles), or as fast as it goes. */
  overallRate?: number;
  /** The paced sender's time limit per request (an error past it); 10 s when absent. */
  timeoutMs?: number;
  /** Throughput runs: the method (GET when absent) and a file whose bytes are every request's body. */
  method?: string;
  bodyFile?: string;
  /** Throughput runs: this many requests in all, then stop (instead of `duration`). */
  amount?: number;
}

export interface LoadResult {
  /** Completed requests per second over the whole run. */
  reqPerSec: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Answers outside 2xx, connection errors and timeouts: any of them spoils the figure. */
  non2xx: number;
  errors: number;
}

/** The value below which `fraction` of the sorted `values` fall (nearest rank). */
function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
}

/** Request bodies by file, read once (a 12 MP photo's upload is sent many times). */
const bodies = new Map<string, Buffer>();
const bodyOf = (file: string) => {
  const body = bodies.get(file) ?? readFileSync(file);
  bodies.set(file, body);
  return body;
};

/** As many requests as the server answers: autocannon, each connection sending its next at once. */
async function flat(job: LoadJob): Promise<LoadResult> {
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    headers: job.headers,
    // autocannon stops only at a sample tick: at its default of 1 s, a 0.5 or 0.75 s run (the
    // quick form's warm-ups and hellos) ran a whole second. The rate is completed requests over
    // the time the run really took, so the tick does not change the figures.
    sampleInt: 250,
    ...(job.method ? { method: job.method } : {}),
    ...(job.bodyFile ? { body: bodyOf(job.bodyFile) } : {}),
    ...(job.amount ? { amount: job.amount } : {}),
    ...(job.timeoutMs ? { timeout: job.timeoutMs / 1000 } : {}),
    ...(job.requests
      ? { requests: job.requests.map((r) => ({ method: 'GET', path: r.path, headers: r.headers })) }
      : job.paths
        ? { requests: job.paths.map((path) => ({ method: 'GET', path })) }
        : {}),
  });
  return {
    reqPerSec: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Requests at a fixed rate, evenly spaced, each sent when due whether or not earlier ones have
 * been answered (over at most `connections` keep-alive sockets), its latency counted from when
 * it was due. autocannon's rate limit sends each second's quota in a burst at the start of the
 * second and keeps whole milliseconds, which makes a p99 of a queue, not of a request.
 */
async function paced(job: LoadJob, rate: number): Promise<LoadResult> {
  const url = new URL(job.url);
  const paths = job.paths ?? [`${url.pathname}${url.search}`];
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (path: string, due: number) =>
    new Promise<void>((resolve) => {
      const req = http.get(
        { host: url.hostname, port: url.port, path, headers: job.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status >= 200 && status < 300) latencies.push(performance.now() - due);
            else non2xx += 1;
            resolve();
          });
        },
      );
      req.setTimeout(job.timeoutMs ?? 10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const count = Math.round(job.duration * rate);
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(send(paths[i % paths.length] ?? '/', due));
  }
  await Promise.all(sent);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    requests: latencies.length + non2xx,
    non2xx,
    errors,
  };
}

const run = (job: LoadJob) => (job.overallRate ? paced(job, job.overallRate) : flat(job));

process.on('message', (job: LoadJob) => {
  run(job).then(
    (answer) => process.send?.(answer),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
