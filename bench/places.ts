/**
 * Place search for the LOCATION field: GET /api/places?query=… on every keystroke.
 *
 *   npx tsx bench/places.ts
 *
 * First measures the one-time gazetteer load (wall time, the longest event-loop stall while it
 * runs, heap and RSS growth). Then times the search for realistic keystroke prefixes (1–6
 * characters of place names people type) through `app.inject` (routing, session check, search,
 * Zod response serialization) against a bare Fastify "hello" route via `inject` in the same
 * process, and against GET /api/auth/me (routing + session check alone) to show what the search
 * itself adds. The three are interleaved call by call over several rounds so machine noise hits
 * them alike; the median of the per-round ratios is the number to compare between machines.
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify from 'fastify';
import { searchPlaces } from '../apps/server/src/modules/places/places.service.js';
import { api, createTestContext, signedInUser } from '../apps/server/test/helpers.js';

const ROUNDS = 7;
const WARMUP_ROUNDS = 1;

/** What people type into LOCATION, keystroke by keystroke. */
const TYPED = [
  'Munich',
  'München',
  'Berlin',
  'Hamburg',
  'Frankfurt',
  'Stuttgart',
  'Köln',
  'Wien',
  'Zürich',
  'London',
  'Manchester',
  'Paris',
  'Lyon',
  'Madrid',
  'Barcelona',
  'Milano',
  'Warszawa',
  'New York',
  'San Francisco',
  'Springfield',
  'Toronto',
  'São Paulo',
  'Sydney',
  'Dubai',
];
const PREFIXES = [...new Set(TYPED.flatMap((t) => [1, 2, 3, 4, 5, 6].map((n) => t.slice(0, n))))];

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: number[], q: number) => {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
const median = (values: number[]) => quantile(values, 0.5);
const ms = (value: number) => `${value.toFixed(3)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function time(call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await call();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const ctx = await createTestContext();
  const baseline = Fastify({ logger: false });
  baseline.get('/hello', async () => ({ hello: 'world' }));
  await baseline.ready();

  try {
    const { token } = await signedInUser(ctx);
    const hello = () => baseline.inject({ method: 'GET', url: '/hello' });
    const me = () => api(ctx, { method: 'GET', url: '/api/auth/me', token });
    const places = (query: string) =>
      api(ctx, { method: 'GET', url: '/api/places', query: { query }, token });

    // One-time load, on the first search.
    gc();
    const before = process.memoryUsage();
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    const cpuBefore = process.cpuUsage();
    const loadMs = await time(() => searchPlaces('m'));
    const loadCpu = process.cpuUsage(cpuBefore);
    stalls.disable();
    // Let the loader's last frames and buffers go before measuring what stays.
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    gc();
    const after = process.memoryUsage();

    const check = await places('munc');
    const first = check.json<{ label: string }[]>()[0]?.label;
    if (check.statusCode !== 200 || first !== 'Munich, Germany') {
      throw new Error(`search failed: ${check.statusCode} ${check.body}`);
    }

    const placeTimes: number[] = [];
    const helloTimes: number[] = [];
    const meTimes: number[] = [];
    const serviceTimes: number[] = [];
    const ratios: number[] = [];
    const byLength = new Map<number, number[]>();
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
      const roundPlaces: number[] = [];
      const roundHello: number[] = [];
      for (const query of PREFIXES) {
        const h = await time(hello);
        const m = await time(me);
        const p = await time(() => places(query));
        const s = await time(() => searchPlaces(query));
        if (round < WARMUP_ROUNDS) continue;
        roundHello.push(h);
        roundPlaces.push(p);
        meTimes.push(m);
        serviceTimes.push(s);
        const length = [...query].length;
        byLength.set(length, [...(byLength.get(length) ?? []), p]);
      }
      if (round < WARMUP_ROUNDS) continue;
      placeTimes.push(...roundPlaces);
      helloTimes.push(...roundHello);
      ratios.push(median(roundPlaces) / median(roundHello));
    }

    const line = (label: string, values: number[]) =>
      console.log(
        `  ${label.padEnd(34)} p50 ${ms(median(values))}   p95 ${ms(quantile(values, 0.95))}`,
      );
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `GET /api/places?query=… (${process.version}, ${availableParallelism()} cores, load average ${load})`,
    );
    console.log('one-time gazetteer load (first search):');
    console.log(`  wall time                          ${ms(loadMs)}`);
    console.log(
      `  CPU time                           ${ms((loadCpu.user + loadCpu.system) / 1000)} (this process, all threads)`,
    );
    console.log(
      `  longest event-loop stall           ${ms(stalls.max / 1e6)} (loading yields to requests)`,
    );
    console.log(`  heap growth                        ${mb(after.heapUsed - before.heapUsed)}`);
    console.log(`  RSS growth                         ${mb(after.rss - before.rss)}`);
    console.log(
      `keystrokes: ${PREFIXES.length} prefixes of ${TYPED.length} place names, 1–6 characters, ${ROUNDS} rounds (+${WARMUP_ROUNDS} warm-up), interleaved`,
    );
    line('GET /api/places via inject', placeTimes);
    for (const [length, values] of [...byLength].sort((a, b) => a[0] - b[0])) {
      line(`  query of ${length} character${length > 1 ? 's' : ''}`, values);
    }
    line('search alone (no HTTP)', serviceTimes);
    line('GET /api/auth/me via inject', meTimes);
    line('bare Fastify hello via inject', helloTimes);
    console.log(
      `  median ratio places / hello        ${median(ratios).toFixed(1)}× (per round: ${ratios.map((r) => r.toFixed(1)).join(', ')})`,
    );
  } finally {
    await baseline.close();
    await ctx.close();
  }
}

await main();
