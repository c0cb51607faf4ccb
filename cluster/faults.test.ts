// Fault test (issue 17, "Failure behaviour"): a burst of uploads from many clients through nginx
// to two instances, one instance SIGKILLed midway and started again while the burst goes on.
//
// - Every upload acknowledged to a client exists with its media; every upload not acknowledged
//   exists whole or not at all; a client's retry with the same clientId never stores it twice.
// - The clients see errors only for requests in flight on the killed instance (nginx's access
//   log names the instance each tagged request went to).
// - nginx sends new requests to the survivor, and to the restarted instance once it is back.
// - The stored counters equal the rows; one sweep (no grace) leaves no orphaned object and there
//   is no dangling row.
//
// `npm test`: CLUSTER_FAULT_RUNS runs (default 1, for the CI run's time budget) of 200 uploads
// from 20 clients, each run on a fresh cluster. CLUSTER_FULL=1 (`npm run test:cluster`): 5 runs
// in a row of 400 uploads. Each run prints
// its seed; CLUSTER_FAULT_SEED=<seed> replays the same kill moment, victim and client mix.
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness.js';
import {
  checkStored,
  describeAttempt,
  finalUpstream,
  intFromEnv,
  makeAccounts,
  newSpec,
  openBackdoor,
  routesByTag,
  routesOf,
  seeded,
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

const FULL = !!process.env.CLUSTER_FULL;
const RUNS = intFromEnv('CLUSTER_FAULT_RUNS', FULL ? 5 : 1);
const UPLOADS = FULL ? 400 : 200;
const CLIENTS = 20;
const MEMBERS = 5;
/** Uploads started after the kill that must finish (on the survivor) before the restart. */
const SURVIVOR_ONLY = 15;
/** Uploads held back until the restarted instance is back in nginx's rotation. */
const AFTER_REJOIN = 30;

const baseSeed = process.env.CLUSTER_FAULT_SEED
  ? Number(process.env.CLUSTER_FAULT_SEED)
  : Date.now() % 1e9;

let cluster: Cluster | null = null;
let backdoor: Backdoor | null = null;

afterEach(async () => {
  await backdoor?.close();
  backdoor = null;
  await cluster?.close();
  cluster = null;
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('an instance SIGKILLed during a burst of uploads through nginx', () => {
  for (let run = 1; run <= RUNS; run++) {
    const seed = baseSeed + run - 1;
    it(`run ${run}/${RUNS}: ${UPLOADS} uploads from ${CLIENTS} clients, one instance killed and restarted (seed ${seed})`, async () => {
      const began = Date.now();
      const random = seeded(seed);
      cluster = await startCluster({ instances: 2 });
      const c = cluster;
      const startedIn = Date.now() - began;
      backdoor = openBackdoor(c);
      const accounts = await makeAccounts(backdoor.db, c.url, MEMBERS);
      const photos = await smallPhotos();
      const specs: UploadSpec[] = Array.from({ length: UPLOADS }, (_, i) =>
        newSpec(
          accounts[i % MEMBERS]!,
          i,
          photos[Math.floor(random() * photos.length)]!,
          `s${seed}`,
        ),
      );
      const victimIndex = random() < 0.5 ? 0 : 1;
      const victim = c.instances[victimIndex]!;
      const survivor = c.instances[1 - victimIndex]!;
      const victimAddr = upstreamOf(victim);
      const survivorAddr = upstreamOf(survivor);
      // After a random 30–60 % of the uploads are acknowledged.
      const killAfter = Math.floor(UPLOADS * (0.3 + 0.3 * random()));

      let next = 0;
      let acks = 0;
      let killedAt = Infinity;
      /** Specs from here on wait for the restarted instance to be back (set at the kill). */
      let heldFrom = UPLOADS;
      const rejoined = deferred();

      // A client takes the next upload; on a failure, half the clients retry it with the same
      // clientId after a pause (as the field uploader does), the other half give up on it.
      const client = async (index: number) => {
        const retries = index % 2 === 0 ? 5 : 0;
        for (;;) {
          const k = next++;
          if (k >= UPLOADS) return;
          if (k >= heldFrom) await rejoined.promise;
          const spec = specs[k]!;
          for (let attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) await sleep(200 + Math.floor(random() * 300));
            const result = await tryUpload(c, spec);
            if (result.status === 200) {
              acks += 1;
              break;
            }
          }
        }
      };
      const burstStarted = Date.now();
      const clients = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));

      await waitFor(`${killAfter} acknowledgements`, () => acks >= killAfter, 180_000, 5);
      const killSentAt = Date.now();
      heldFrom = Math.min(UPLOADS - AFTER_REJOIN, next + 2 * SURVIVOR_ONLY);
      const exit = await victim.kill();
      killedAt = Date.now();
      expect(exit.signal).toBe('SIGKILL');
      const acksAtKill = acks;
      const attempts = () => specs.flatMap((s) => s.attempts);

      // The survivor alone: some uploads started after the kill finish before the restart.
      const afterKill = () =>
        attempts().filter((a) => a.startedAt > killedAt && a.endedAt > 0 && a.status === 200);
      await waitFor(
        `${SURVIVOR_ONLY} uploads on the survivor`,
        () => afterKill().length >= SURVIVOR_ONLY,
        180_000,
        10,
      );
      const restartAt = Date.now();
      await victim.start();
      const restartedAt = Date.now();

      // The restarted instance rejoins: nginx sends it requests again (it skips an instance for
      // fail_timeout after a failure, then tries it again by itself).
      const token = accounts[0]!.token;
      const probes: Attempt[] = [];
      await waitFor(
        'nginx to send a request to the restarted instance',
        async () => {
          const probe = await tryGet(c, '/api/health', token, 10_000);
          probes.push(probe);
          const routes = routesByTag(c.accessLog());
          return probes.some((p) => finalUpstream(routes.get(p.tag)) === victimAddr);
        },
        60_000,
        100,
      );
      const rejoinedAt = Date.now();
      rejoined.resolve();
      await clients;
      const burstMs = Date.now() - burstStarted;

      // ---- what the clients saw, against where nginx sent each request ----
      const all = attempts();
      const routes = await routesOf(c, all);
      const touchedVictimAtKill = (a: Attempt) =>
        routes.get(a.tag)!.upstreams.includes(victimAddr) &&
        a.startedAt <= killedAt &&
        a.endedAt >= killSentAt;
      const inFlightOnVictim = all.filter(touchedVictimAtKill);
      const failed = all.filter((a) => a.status !== 200);
      const unexplained = failed.filter(
        (a) => !(touchedVictimAtKill(a) && finalUpstream(routes.get(a.tag)) === victimAddr),
      );
      expect(
        unexplained.map((a) => describeAttempt(a, routes.get(a.tag), c)),
        `seed ${seed}: errors on requests that were not in flight on the killed instance ` +
          `(killed ${killSentAt}→${killedAt})`,
      ).toEqual([]);
      expect(failed.length).toBeLessThanOrEqual(inFlightOnVictim.length);
      // The probes too: every one answered.
      expect(probes.filter((p) => p.status !== 200).map((p) => describeAttempt(p))).toEqual([]);

      // Between the kill and the restart, every request ended on the survivor, and succeeded.
      const whileDown = all.filter((a) => a.startedAt > killedAt && a.endedAt <= restartAt);
      expect(whileDown.length).toBeGreaterThanOrEqual(SURVIVOR_ONLY);
      expect(
        whileDown
          .filter((a) => a.status !== 200 || finalUpstream(routes.get(a.tag)) !== survivorAddr)
          .map((a) => describeAttempt(a, routes.get(a.tag), c)),
        'requests while the killed instance was down',
      ).toEqual([]);
      // After it rejoined, it took uploads again.
      const afterRejoin = all.filter((a) => a.startedAt >= rejoinedAt);
      const onRestarted = afterRejoin.filter(
        (a) => finalUpstream(routes.get(a.tag)) === victimAddr && a.status === 200,
      );
      expect(onRestarted.length, 'uploads on the restarted instance').toBeGreaterThan(0);

      // ---- what is stored ----
      const stored = await checkStored(backdoor, specs);
      expect(stored.problems, `seed ${seed}`).toEqual([]);
      // The restarted instance serves uploads, and their media, acknowledged by either.
      for (const spec of specs.filter((s) => s.ackedId !== null).slice(0, 5)) {
        const res = await fetch(`${victim.url}/api/upload/full/${spec.ackedId}`, {
          headers: { authorization: `Bearer ${spec.account.token}` },
        });
        expect(res.status).toBe(200);
        const upload = (await res.json()) as { previewLink: string };
        const image = await fetch(new URL(upload.previewLink, victim.url));
        expect(image.status).toBe(200);
        expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      const swept = await sweepAndCompare(backdoor, c);
      expect(swept.orphansLeft, 'orphaned objects after a sweep').toEqual([]);
      expect(swept.danglingKeys, 'rows whose objects are missing').toEqual([]);
      expect(swept.tempLeft, 'temp files after a sweep').toEqual([]);

      const retried = specs.filter((s) => s.attempts.length > 1);
      const givenUp = specs.filter((s) => s.ackedId === null);
      console.log(
        `fault run ${run} (seed ${seed}): instance ${victim.name} killed after ${acksAtKill} of ` +
          `${UPLOADS} acks with ${inFlightOnVictim.length} requests in flight on it; ` +
          `${failed.length} client errors (${retried.length} uploads retried, ` +
          `${retried.filter((s) => s.ackedId !== null).length} then acknowledged, ` +
          `${givenUp.length} given up of which ${stored.unacknowledgedStored} stored whole); ` +
          `${whileDown.length} requests on the survivor while it was down ` +
          `(${whileDown.filter((a) => routes.get(a.tag)!.upstreams.length > 1).length} tried it first); ` +
          `restart ${restartedAt - restartAt} ms, rejoined ${rejoinedAt - restartedAt} ms later, ` +
          `${onRestarted.length}/${afterRejoin.length} uploads then on it; ${stored.rows} rows, ` +
          `${swept.objectsBefore - stored.referencedKeys.length} leftover objects ` +
          `(${swept.orphansRemoved} orphans swept, ${swept.tempFilesRemoved} temp files); ` +
          `cluster start ${startedIn} ms, burst ${burstMs} ms, run ${Date.now() - began} ms` +
          `; ${all.filter((a) => a.resent.length > 0).length} sent again on a new connection (nginx had closed theirs)`,
      );
    });
  }
});
