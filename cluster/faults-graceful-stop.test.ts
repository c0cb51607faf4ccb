// Fault test (issue 17, "Failure behaviour"): a graceful stop (SIGTERM) of one instance of two
// behind nginx, while uploads are in flight on it and clients keep using the site.
//
// - Its /api/health answers 503 `draining` during DRAIN_DELAY_SECONDS (5 s here: deploy/nginx.conf's
//   upstream keepalive_timeout and a second, as the README asks), then it stops accepting
//   connections.
// - The uploads in flight on it (bodies still arriving when it stopped accepting) complete with
//   their normal answer and are stored whole; the process exits 0 once they have.
// - New requests go to the other instance. No client sees an error at any point of the stop but
//   for an upload nginx sent to the instance in the very instant it stopped listening (reset
//   unread: a 502 through nginx, which cannot resend a streamed body); the client sends it again
//   with its clientId, as the field uploader does, and it is stored once.
// - Nothing is left half-written: one sweep finds no orphan and no dangling row.
import { connect } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nginxConfFile, startCluster, type Cluster, type Instance } from './harness.js';
import {
  checkStored,
  describeAttempt,
  finalUpstream,
  makeAccounts,
  newSpec,
  openBackdoor,
  routesOf,
  sleep,
  slowUpload,
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

const IN_FLIGHT = 6;
/**
 * The drain delay behind nginx must outlast deploy/nginx.conf's upstream keepalive_timeout (see
 * there): one second more, read from the file the cluster runs.
 */
function drainDelaySeconds(): number {
  const m = /upstream sitelog \{[^}]*keepalive_timeout (\d+)s;/.exec(
    readFileSync(nginxConfFile, 'utf8'),
  );
  if (!m) throw new Error(`no upstream keepalive_timeout in ${nginxConfFile}`);
  return Number(m[1]) + 1;
}
const LOAD_CLIENTS = 4;

let cluster: Cluster | null = null;
let backdoor: Backdoor | null = null;

afterEach(async () => {
  await backdoor?.close();
  backdoor = null;
  await cluster?.close();
  cluster = null;
});

const tempFiles = (instance: Instance) => {
  const dir = path.join(instance.dataDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** True when nothing accepts connections on the instance's port any more. */
function refusesConnections(instance: Instance): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: instance.port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('a graceful stop (SIGTERM) of an instance behind nginx', () => {
  it('drains its in-flight uploads, reports draining, sends new requests to the other instance and exits 0', async () => {
    const began = Date.now();
    const drainDelay = drainDelaySeconds();
    cluster = await startCluster({
      instances: 2,
      env: { DRAIN_DELAY_SECONDS: String(drainDelay) },
    });
    const c = cluster;
    const [stopped, other] = c.instances as [Instance, Instance];
    backdoor = openBackdoor(c);
    const accounts = await makeAccounts(backdoor.db, c.url, 2);
    const photos = await smallPhotos();
    const specs: UploadSpec[] = [];
    const spec = (label: string) => {
      const s = newSpec(
        accounts[specs.length % 2]!,
        specs.length,
        photos[specs.length % 3]!,
        label,
      );
      specs.push(s);
      return s;
    };

    // Uploads in flight: half their photo sent, the rest held back. Each has reached an instance
    // once its photo is being written to that instance's temp folder.
    const slow = [];
    for (let i = 0; i < IN_FLIGHT; i++) slow.push(await slowUpload(c.url, spec('in flight')));
    await waitFor(
      'every held upload to reach an instance',
      () => tempFiles(stopped).length + tempFiles(other).length === IN_FLIGHT,
      60_000,
      20,
    );
    const inFlightOnStopped = tempFiles(stopped).length;
    expect(inFlightOnStopped, 'uploads in flight on the instance to stop').toBeGreaterThan(0);

    // Clients keep using the site through nginx during the whole stop.
    const load: Attempt[] = [];
    let loading = true;
    const loadClient = async (i: number) => {
      const account = accounts[i % 2]!;
      while (loading) {
        // A failed upload is sent again with its clientId, as the field uploader does.
        const upload = spec('during the stop');
        for (let attempt = 0; attempt < 3; attempt++) {
          const result = await tryUpload(c, upload);
          load.push(result);
          if (result.status === 200) break;
          await sleep(200);
        }
        load.push(
          await tryGet(c, `/api/upload/project/${account.projectId}/latest`, account.token),
        );
        await sleep(20);
      }
    };
    const loadDone = Promise.all(Array.from({ length: LOAD_CLIENTS }, (_, i) => loadClient(i)));
    await waitFor('some load', () => load.filter((a) => a.status === 200).length >= 4, 60_000, 10);

    const sigtermAt = Date.now();
    stopped.signal('SIGTERM');

    // While the drain delay runs: the instance says it is draining, the other one is healthy.
    let draining: { status: number; body: { code?: string; message?: string } } | null = null;
    await waitFor(
      'the stopping instance to answer 503 draining',
      async () => {
        const res = await fetch(`${stopped.url}/api/health`, { signal: AbortSignal.timeout(5000) });
        const body = (await res.json()) as { code?: string; message?: string };
        if (res.status !== 503) return false;
        draining = { status: res.status, body };
        return true;
      },
      10_000,
      20,
    );
    const drainingSeenAt = Date.now();
    expect(draining).toMatchObject({ status: 503, body: { code: 'draining' } });
    expect(draining!.body.message).toMatch(/^[A-Z].*\.$/);
    const otherHealth = await fetch(`${other.url}/api/health`);
    expect(otherHealth.status).toBe(200);

    // Then it stops accepting connections; the uploads in flight on it keep it running.
    await waitFor(
      'the stopping instance to refuse connections',
      () => refusesConnections(stopped),
      30_000,
      20,
    );
    const closedAt = Date.now();
    expect(stopped.running, 'the stopping instance is still running').toBe(true);

    // New requests now: every one goes to the other instance.
    const freshDone = Promise.all([
      ...Array.from({ length: 4 }, () => tryUpload(c, spec('after the close'))),
      ...accounts.map((a) => tryGet(c, `/api/upload/project/${a.projectId}/latest`, a.token)),
    ]);

    // The held uploads finish sending: each completes normally, on whichever instance it was.
    for (const s of slow) await s.finish();
    const held = await Promise.all(slow.map((s) => s.done));
    const fresh = await freshDone;
    const exit = await stopped.exited();
    const exitedAt = Date.now();
    loading = false;
    await loadDone;

    const all = [...held, ...fresh, ...load];
    const routes = await routesOf(c, all);
    expect(
      held.filter((a) => a.status !== 200).map((a) => describeAttempt(a, routes.get(a.tag), c)),
      'uploads in flight when the instance was stopped',
    ).toEqual([]);
    expect(
      held.filter((a) => finalUpstream(routes.get(a.tag)) === upstreamOf(stopped)).length,
      'held uploads answered by the stopped instance',
    ).toBe(inFlightOnStopped);
    expect(exit, 'the stopped instance exits 0').toEqual({ code: 0, signal: null });

    const stray = [...fresh, ...load].filter(
      (a) => a.startedAt > closedAt && finalUpstream(routes.get(a.tag)) !== upstreamOf(other),
    );
    expect(
      stray.map((a) => describeAttempt(a, routes.get(a.tag), c)),
      'requests after the close',
    ).toEqual([]);
    // The one error a client may see: an upload nginx sent to the instance in the instant it
    // stopped listening, reset unread (nginx cannot send a streamed body again; the uploader
    // does, with its clientId). Nothing else fails: not before the close, not after it.
    const resetAtClose = (a: Attempt) => {
      const route = routes.get(a.tag);
      return (
        a.spec !== null &&
        a.status === 503 &&
        a.code === 'unavailable' &&
        finalUpstream(route) === upstreamOf(stopped) &&
        route?.upstreamStatuses.at(-1) === '502' &&
        a.endedAt >= sigtermAt + drainDelay * 1000 &&
        a.startedAt <= closedAt &&
        !stopped.output().includes(`fault=${a.tag}`)
      );
    };
    const failed = [...fresh, ...load].filter((a) => a.status !== 200);
    expect(
      failed.filter((a) => !resetAtClose(a)).map((a) => describeAttempt(a, routes.get(a.tag), c)),
      `client errors during the stop (SIGTERM ${sigtermAt}, draining seen ${drainingSeenAt}, ` +
        `connections refused ${closedAt}, exit ${exitedAt})`,
    ).toEqual([]);

    const stored = await checkStored(backdoor, specs);
    expect(stored.problems).toEqual([]);
    expect(stored.acknowledged).toBe(specs.length);
    const swept = await sweepAndCompare(backdoor, c);
    expect(swept.orphansLeft, 'orphaned objects after a sweep').toEqual([]);
    expect(swept.danglingKeys, 'rows whose objects are missing').toEqual([]);
    expect(swept.tempLeft, 'temp files after a sweep').toEqual([]);

    const onStoppedDuringDrain = load.filter(
      (a) =>
        a.startedAt >= sigtermAt &&
        a.startedAt < closedAt &&
        finalUpstream(routes.get(a.tag)) === upstreamOf(stopped),
    ).length;
    console.log(
      `graceful stop: ${inFlightOnStopped}/${IN_FLIGHT} held uploads on instance ${stopped.name}; ` +
        `draining seen ${drainingSeenAt - sigtermAt} ms after SIGTERM, connections refused after ` +
        `${closedAt - sigtermAt} ms, exit ${exitedAt - sigtermAt} ms; ${load.length} requests of ` +
        `load (${onStoppedDuringDrain} on it during the drain delay), ${fresh.length} after the ` +
        `close; ${failed.length} uploads reset as it stopped listening (sent again); ` +
        `${stored.rows} rows; ${swept.orphansRemoved} orphans swept; ` +
        `run ${Date.now() - began} ms` +
        `; ${all.filter((a) => a.resent.length > 0).length} sent again on a new connection (nginx had closed theirs)`,
    );
  });
});
