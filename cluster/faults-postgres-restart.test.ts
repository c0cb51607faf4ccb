// Fault test (issue 17, "Failure behaviour"): PostgreSQL restarted under load. Two instances
// behind nginx on a private PostgreSQL server; while clients read feeds and upload through nginx,
// the server is stopped (fast: sessions cut, as a restart for an upgrade does), kept down ~3 s
// and started again.
//
// - During the outage requests fail with 503 `database_unavailable`, the app's sentence and
//   Retry-After: 5; never a 500, never a hang beyond the pool's 5 s connect timeout (+ margin).
//   Each instance's /api/health says database_unavailable.
// - The instances stay up (same processes, no restart) and serve again on their own within
//   seconds of PostgreSQL's return, both of them.
// - Nothing acknowledged is lost, nothing is half-written; one sweep leaves no orphan.
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Instance } from './harness.js';
import {
  checkStored,
  describeAttempt,
  finalUpstream,
  makeAccounts,
  newSpec,
  openBackdoor,
  routesOf,
  sleep,
  smallPhotos,
  sweepAndCompare,
  tryGet,
  tryUpload,
  upstreamOf,
  type Attempt,
  type Backdoor,
  type UploadSpec,
} from './faults.support.js';
import { waitFor } from './processes.js';

const OUTAGE_MS = 3000;
const UPLOADERS = 3;
const READERS = 5;
const UNAVAILABLE = {
  status: 503,
  code: 'database_unavailable',
  message: 'The database cannot be reached right now. Try again in a moment.',
  retryAfter: '5',
};
/** The pool's connect timeout (5 s) and a margin for this busy machine. */
const LONGEST_FAILURE_MS = 5000 + 10_000;

let cluster: Cluster | null = null;
let backdoor: Backdoor | null = null;

afterEach(async () => {
  await backdoor?.close();
  backdoor = null;
  await cluster?.close();
  cluster = null;
});

describe('PostgreSQL restarted under load', () => {
  it('turns requests into 503 database_unavailable while it is down; both instances recover by themselves and nothing is lost', async () => {
    const began = Date.now();
    cluster = await startCluster({ instances: 2, postgres: 'private' });
    const c = cluster;
    const pids = c.instances.map((i) => i.pid);
    backdoor = openBackdoor(c);
    const accounts = await makeAccounts(backdoor.db, c.url, 4);
    const photos = await smallPhotos();
    const specs: UploadSpec[] = [];
    const reads: Attempt[] = [];
    let loading = true;

    // Uploaders retry a failed upload with the same clientId (as the field uploader does)
    // until it is acknowledged or the run ends; readers read their project's feed.
    const uploader = async (i: number) => {
      const account = accounts[i % accounts.length]!;
      while (loading) {
        const spec = newSpec(account, specs.length, photos[specs.length % 3]!, 'pg');
        specs.push(spec);
        while (loading) {
          const attempt = await tryUpload(c, spec, 30_000);
          if (attempt.status === 200) break;
          await sleep(300);
        }
      }
    };
    const reader = async (i: number) => {
      const account = accounts[i % accounts.length]!;
      while (loading) {
        reads.push(
          await tryGet(c, `/api/upload/project/${account.projectId}/latest`, account.token, 30_000),
        );
        await sleep(20);
      }
    };
    const clients = Promise.all([
      ...Array.from({ length: UPLOADERS }, (_, i) => uploader(i)),
      ...Array.from({ length: READERS }, (_, i) => reader(i)),
    ]);
    const uploads = () => specs.flatMap((s) => s.attempts);
    const ok = (list: Attempt[], after: number) =>
      list.filter((a) => a.startedAt >= after && a.status === 200).length;
    await waitFor('some load', () => ok(uploads(), 0) >= 6 && ok(reads, 0) >= 20, 120_000, 10);

    // ---- the outage ----
    const stopAt = Date.now();
    await c.postgres.stop!();
    const stoppedAt = Date.now();
    // Each instance's health check says so (it is cached for 1 s).
    const healthDuringOutage = await Promise.all(
      c.instances.map(async (instance) => {
        let last: { status: number; code?: string; message?: string } | null = null;
        await waitFor(
          `instance ${instance.name}'s health to say database_unavailable`,
          async () => {
            const res = await fetch(`${instance.url}/api/health`, {
              signal: AbortSignal.timeout(LONGEST_FAILURE_MS),
            });
            last = { status: res.status, ...((await res.json()) as object) };
            return res.status === 503;
          },
          LONGEST_FAILURE_MS,
          50,
        );
        return last!;
      }),
    );
    const downFor = OUTAGE_MS - (Date.now() - stoppedAt);
    if (downFor > 0) await sleep(downFor);
    const startAt = Date.now();
    await c.postgres.start!();
    const upAt = Date.now();

    // ---- recovery: each instance serves again, by itself ----
    const recoveredAt = await Promise.all(
      c.instances.map(async (instance: Instance) => {
        const account = accounts[0]!;
        await waitFor(
          `instance ${instance.name} to serve a feed again`,
          async () => {
            const res = await fetch(
              `${instance.url}/api/upload/project/${account.projectId}/latest`,
              {
                headers: { authorization: `Bearer ${account.token}` },
                signal: AbortSignal.timeout(LONGEST_FAILURE_MS),
              },
            );
            await res.arrayBuffer();
            return res.status === 200;
          },
          30_000,
          50,
        );
        return Date.now();
      }),
    );
    const recovered = Math.max(...recoveredAt);
    // Load goes on until uploads and reads succeed again through nginx on both instances.
    await waitFor(
      'uploads and reads through nginx after the recovery',
      async () => {
        if (ok(uploads(), recovered) < 6 || ok(reads, recovered) < 20) return false;
        const routes = await routesOf(
          c,
          reads.filter((a) => a.startedAt >= recovered && a.status === 200),
        );
        return c.instances.every((instance) =>
          reads.some(
            (a) =>
              a.startedAt >= recovered &&
              a.status === 200 &&
              finalUpstream(routes.get(a.tag)) === upstreamOf(instance),
          ),
        );
      },
      120_000,
      50,
    );
    loading = false;
    await clients;

    // ---- what the clients saw ----
    const all = [...uploads(), ...reads];
    const routes = await routesOf(c, all);
    const failed = all.filter((a) => a.status !== 200);
    const wrong = failed.filter(
      (a) =>
        a.status !== UNAVAILABLE.status ||
        a.code !== UNAVAILABLE.code ||
        a.message !== UNAVAILABLE.message ||
        a.retryAfter !== UNAVAILABLE.retryAfter,
    );
    expect(
      wrong.map((a) => describeAttempt(a, routes.get(a.tag), c)),
      `failures other than 503 database_unavailable with Retry-After: 5 (PostgreSQL stopped ` +
        `${stopAt}→${stoppedAt}, started ${startAt}→${upAt}, instances served again at ${recovered})`,
    ).toEqual([]);
    const slow = failed.filter((a) => a.endedAt - a.startedAt > LONGEST_FAILURE_MS);
    expect(
      slow.map(
        (a) => `${describeAttempt(a, routes.get(a.tag), c)} took ${a.endedAt - a.startedAt} ms`,
      ),
      'failures that hung',
    ).toEqual([]);
    // Only during the outage: none before the stop, none once both instances had recovered.
    const outside = failed.filter((a) => a.endedAt < stopAt || a.startedAt > recovered);
    expect(
      outside.map((a) => describeAttempt(a, routes.get(a.tag), c)),
      'failures outside the outage',
    ).toEqual([]);
    expect(
      failed.filter((a) => a.spec === null).length,
      'reads refused during the outage',
    ).toBeGreaterThan(0);
    expect(
      failed.filter((a) => a.spec !== null).length,
      'uploads refused during the outage',
    ).toBeGreaterThan(0);
    for (const health of healthDuringOutage)
      expect(health).toMatchObject({ status: 503, code: 'database_unavailable' });

    // The same processes throughout: no crash, no restart.
    expect(c.instances.map((i) => i.running)).toEqual([true, true]);
    expect(c.instances.map((i) => i.pid)).toEqual(pids);
    const fatal = c.instances.flatMap((i) =>
      i
        .logs()
        .filter((line) => (line.level ?? 0) >= 60)
        .map((line) => `${i.name}: ${line.msg}`),
    );
    expect(fatal, 'fatal log lines').toEqual([]);

    // ---- what is stored ----
    const stored = await checkStored(backdoor, specs);
    expect(stored.problems).toEqual([]);
    const swept = await sweepAndCompare(backdoor, c);
    expect(swept.orphansLeft, 'orphaned objects after a sweep').toEqual([]);
    expect(swept.danglingKeys, 'rows whose objects are missing').toEqual([]);

    const byInstance = c.instances
      .map(
        (i) =>
          `${i.name} ${failed.filter((a) => finalUpstream(routes.get(a.tag)) === upstreamOf(i)).length}`,
      )
      .join(', ');
    const longest = Math.max(0, ...failed.map((a) => a.endedAt - a.startedAt));
    console.log(
      `postgres restart: stop took ${stoppedAt - stopAt} ms, down ${startAt - stoppedAt} ms, ` +
        `start ${upAt - startAt} ms; instances served again ${recoveredAt
          .map((t) => t - upAt)
          .join(' and ')} ms after it was up; ${failed.length} requests refused with 503 ` +
        `(${failed.filter((a) => a.spec === null).length} reads, ${failed.filter((a) => a.spec).length} uploads; ` +
        `per instance: ${byInstance}; longest ${longest} ms) of ${all.length}; ` +
        `${stored.acknowledged} uploads acknowledged, ${stored.rows} rows, ${swept.orphansRemoved} ` +
        `orphans swept; run ${Date.now() - began} ms` +
        `; ${all.filter((a) => a.resent.length > 0).length} sent again on a new connection (nginx had closed theirs)`,
    );
  });
});
