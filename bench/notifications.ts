/**
 * Notifications (issue 15): what the bell's poll and the fan-out on write cost.
 *
 *   npx tsx bench/notifications.ts [--quick] [--connections=N] [--only=poll|fanout]
 *   TEST_DB=postgres TEST_DATABASE_URL=… npx tsx bench/notifications.ts   (the upload rows)
 *
 * 1. The poll: `GET /api/notifications/unread` from 200 signed-in members (200 sessions, each
 *    request with its member's token), through real HTTP, against the bare Fastify hello in the
 *    same run, as bench/http.ts measures (app and hello pinned to CPU 0, autocannon to CPU 1,
 *    production mode, the default log level). Two rows: the poll as the web sends it, with the
 *    member's last `ETag` in `If-None-Match` (a 304 while nothing changed: what almost every
 *    poll gets), and without it (a 200 with the count). Each round runs the hello, then each
 *    call followed by another hello; a call's ratio is the median over the rounds of its req/s
 *    divided by the mean of the two hellos around it. The data: 200 members, 10 projects each
 *    followed by about a third of them, 60 project events fanned out through the events service
 *    (≈ 4,000 notifications), a third of them read; sessions opened by the auth service.
 * 2. The fan-out: upload to ready (`POST /api/upload/autoupload` through `app.inject`, a 12 MP
 *    JPEG, as bench/uploads.ts) into a project 50 members follow against one nobody follows,
 *    interleaved call by call, median of the per-round ratios; once with each upload folded into
 *    the followers' unread group (an update of 50 rows: the usual case while someone uploads a
 *    batch) and once as a new notification each (the followers read the last one in between,
 *    not timed: an insert of 50 rows). A third row does the same with a small photo, where the
 *    image work no longer hides the transaction (reported, no target).
 *
 * `measureNotifications` is also called by bench/run.ts (`npm run bench`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import {
  createDatabase,
  migrateToLatest,
  writeTransaction,
} from '../apps/server/src/db/database.js';
import { openSession } from '../apps/server/src/modules/auth/auth.service.js';
import { recordEvent } from '../apps/server/src/modules/events/events.service.js';
import { markProject } from '../apps/server/src/modules/projects/projects.service.js';
import { buildProject, buildUser } from '../apps/server/test/factories.js';
import {
  api,
  createTestContext,
  signedInUser,
  testDialect,
  type TestContext,
} from '../apps/server/test/helpers.js';
import { jpegWithExif, photoJpeg } from '../apps/server/test/images.js';
import {
  pinning,
  seedConfig,
  startAppProcess,
  startLoadWorker,
  startServer,
  type Server,
} from './http.js';
import type { LoadJob, LoadResult } from './load-worker.js';
import { isMain, median, time } from './measure.js';
import {
  atLeast,
  atMost,
  formatTable,
  measured,
  millis,
  reqPerSec,
  times,
  type Row,
} from './table.js';
import { uploadForm } from './uploads.js';

export interface NotificationsOptions {
  /** Rounds of the poll against the hello; seconds per call run and per hello run. */
  rounds: number;
  seconds: number;
  helloSeconds: number;
  /** Autocannon connections (one per polling client). */
  connections: number;
  /** Interleaved rounds and calls per round of the upload comparisons. */
  uploadRounds: number;
  uploadCalls: number;
  /** Leave out the 12 MP rows (the quick form: the small photo shows the fan-out alone). */
  largePhoto: boolean;
}

export const fullNotifications: NotificationsOptions = {
  rounds: 5,
  seconds: 4,
  helloSeconds: 2,
  connections: 200,
  uploadRounds: 11,
  uploadCalls: 3,
  largePhoto: true,
};
export const quickNotifications: NotificationsOptions = {
  rounds: 2,
  seconds: 1.5,
  helloSeconds: 1,
  connections: 200,
  uploadRounds: 3,
  uploadCalls: 3,
  largePhoto: false,
};

const MEMBERS = 200;
const PROJECTS = 10;
const EVENTS = 60;
const FOLLOWERS = 50;
const POLL_TARGET = 0.3;
const FANOUT_TARGET = 1.1;

export interface NotificationsResult {
  rows: Row[];
  notes: string[];
}

const count = (n: number) => n.toLocaleString('en-US');

// ---- 1. the poll ----------------------------------------------------------------------------

/** 200 members with sessions and notifications, in a fresh SQLite data dir; their tokens. */
async function seedPoll(dataDir: string): Promise<{ tokens: string[]; notifications: number }> {
  const config = seedConfig(dataDir);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    const ctx = { db };
    const users = [];
    for (let i = 0; i < MEMBERS; i++) users.push(await buildUser(ctx));
    const projects = [];
    for (let p = 0; p < PROJECTS; p++)
      projects.push(await buildProject(ctx, { creatorId: users[p % users.length]?.id }));
    // Member i follows the projects p with (i + p) % 3 == 0: about a third each.
    for (const [i, user] of users.entries())
      for (const [p, project] of projects.entries())
        if ((i + p) % 3 === 0)
          await markProject(db, { userId: user.id, projectId: project.id, mark: 'follow' });
    for (let e = 0; e < EVENTS; e++) {
      const project = projects[e % PROJECTS];
      const actor = users[(e * 7) % MEMBERS];
      if (!project || !actor) continue;
      await writeTransaction(db, (trx) =>
        recordEvent(trx, { kind: 'project.edited', actorId: actor.id, projectId: project.id }),
      );
    }
    // A third read, as a member who opens the list now and then leaves them.
    await db
      .updateTable('notifications')
      .set({ read_at: new Date().toISOString() })
      .where((eb) => eb(eb('id', '%', 3), '=', 0))
      .execute();
    const tokens: string[] = [];
    for (const user of users) {
      const session = await openSession(
        { db, config },
        {
          id: user.id,
          firstname: user.firstname,
          lastname: user.lastname,
          email: user.email,
          is_admin: 0,
        },
      );
      tokens.push(session.token);
    }
    const total = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { tokens, notifications: Number(total.n) };
  } finally {
    await db.destroy();
  }
}

/** Each member's count and ETag, checked: 200 without `If-None-Match`, 304 with it. */
async function checkPolls(base: string, tokens: string[]): Promise<string[]> {
  const etags: string[] = [];
  for (const token of tokens) {
    const url = `${base}/api/notifications/unread`;
    const headers = { authorization: `Bearer ${token}` };
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { count?: unknown };
    const etag = res.headers.get('etag');
    if (res.status !== 200 || typeof body.count !== 'number' || !etag)
      throw new Error(`unread: ${res.status} ${JSON.stringify(body)} etag ${etag}`);
    const again = await fetch(url, { headers: { ...headers, 'if-none-match': etag } });
    if (again.status !== 304) throw new Error(`unread with its ETag: ${again.status}, not 304`);
    etags.push(etag);
  }
  return etags;
}

async function measurePoll(
  options: NotificationsOptions,
  progress: (line: string) => void,
): Promise<NotificationsResult> {
  const pins = pinning();
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-notifications-'));
  const servers: Server[] = [];
  let load: ReturnType<typeof startLoadWorker> | null = null;
  try {
    progress(`notifications: seeding ${MEMBERS} members with sessions and notifications…`);
    const dataDir = path.join(dir, 'data');
    const seeded = await seedPoll(dataDir);
    const app = await startAppProcess(
      pins.server,
      dataDir,
      path.join(dir, 'app.log'),
      [],
      [/place search (ready|could not)/],
    );
    servers.push(app);
    const base = `http://127.0.0.1:${app.port}`;
    const hello = await startServer(
      pins.server,
      ['--import', 'tsx', 'bench/hello-server.ts'],
      { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: '0' },
      path.join(dir, 'hello.log'),
      [/listening (\d+)/],
    );
    servers.push(hello);
    const etags = await checkPolls(base, seeded.tokens);

    load = startLoadWorker(pins.load);
    const worker = load;
    const path304 = '/api/notifications/unread';
    const job = (conditional: boolean, seconds: number): LoadJob => ({
      url: `${base}${path304}`,
      connections: options.connections,
      duration: seconds,
      headers: {},
      requests: seeded.tokens.map((token, i) => ({
        path: path304,
        headers: {
          authorization: `Bearer ${token}`,
          ...(conditional ? { 'if-none-match': etags[i] ?? '' } : {}),
        },
      })),
    });
    // A 304 is outside 2xx for autocannon: the conditional run must answer nothing else.
    const checked = (what: string, result: LoadResult, all304: boolean) => {
      const wrong = all304 ? result.requests - result.non2xx : result.non2xx;
      if (wrong > 0 || result.errors > 0)
        throw new Error(
          `${what}: ${wrong} answers other than ${all304 ? '304' : '2xx'} and ${result.errors} errors under load`,
        );
      return result.reqPerSec;
    };
    const runHello = async (seconds: number) =>
      checked(
        'hello',
        await worker.run({
          url: `http://127.0.0.1:${hello.port}/hello`,
          connections: options.connections,
          duration: seconds,
          headers: {},
        }),
        false,
      );
    const runPoll = async (conditional: boolean, seconds: number) =>
      checked('unread', await worker.run(job(conditional, seconds)), conditional);

    progress('notifications: warming up…');
    await runHello(1);
    await runPoll(true, 1);
    await runPoll(false, 1);

    const calls = [
      { conditional: true, values: [] as number[], ratios: [] as number[] },
      { conditional: false, values: [] as number[], ratios: [] as number[] },
    ];
    const hellos: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      let before = await runHello(options.helloSeconds);
      hellos.push(before);
      const order = round % 2 ? [...calls].reverse() : calls;
      for (const call of order) {
        const value = await runPoll(call.conditional, options.seconds);
        const after = await runHello(options.helloSeconds);
        hellos.push(after);
        call.values.push(value);
        call.ratios.push(value / ((before + after) / 2));
        before = after;
      }
      progress(
        `notifications round ${round + 1}/${options.rounds}: hello ${reqPerSec(before)}; ` +
          calls
            .map((c) => `${c.conditional ? '304' : '200'} ${reqPerSec(c.values.at(-1) ?? NaN)}`)
            .join(', '),
      );
    }
    const [conditional, plain] = calls as [(typeof calls)[0], (typeof calls)[0]];
    const helloValue = median(hellos);
    const row = (measure: string, call: (typeof calls)[0], target?: number) =>
      measured(
        measure,
        {
          value: reqPerSec(median(call.values)),
          baseline: `hello ${reqPerSec(helloValue)}`,
          ratio: times(median(call.ratios)),
        },
        median(call.ratios),
        target === undefined ? undefined : atLeast(target),
      );
    return {
      rows: [
        row(
          `GET /api/notifications/unread, ${MEMBERS} members polling with If-None-Match (304)`,
          conditional,
          POLL_TARGET,
        ),
        row(`↳ the same without If-None-Match (200, the count)`, plain),
      ],
      notes: [
        `notifications: ${MEMBERS} members each with a session of their own, ${PROJECTS} projects, ` +
          `${count(seeded.notifications)} notifications (${EVENTS} project events fanned out); ` +
          `${options.connections} connections cycling through the ${MEMBERS} members' requests; ` +
          `${options.rounds} rounds of ${options.seconds} s per call, hello ${options.helloSeconds} s ` +
          `before and after each; ratios are medians of the per-round ratios; SQLite`,
      ],
    };
  } finally {
    load?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- 2. the fan-out on upload ---------------------------------------------------------------

/**
 * `a` against `b` interleaved call by call (the order of each pair alternating) after three
 * warm-up pairs, with `setup` (not timed) right before each `a`; answers the medians and the median of the per-round
 * ratios, as `compare` in bench/measure.ts.
 */
async function compareWithSetup(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  setup: () => Promise<unknown>,
  rounds: number,
  calls: number,
) {
  for (let i = 0; i < 3; i++) {
    await setup();
    await a();
    await b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const ra: number[] = [];
    const rb: number[] = [];
    for (let c = 0; c < calls; c++) {
      // Every other pair runs `b` first, so neither side always follows the other's writes.
      if ((r * calls + c) % 2) rb.push(await time(b));
      await setup();
      ra.push(await time(a));
      if ((r * calls + c) % 2 === 0) rb.push(await time(b));
    }
    as.push(...ra);
    bs.push(...rb);
    ratios.push(median(ra) / median(rb));
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

async function measureFanout(
  options: NotificationsOptions,
  progress: (line: string) => void,
): Promise<NotificationsResult> {
  const ctx: TestContext = await createTestContext();
  try {
    progress(`notifications: uploads with ${FOLLOWERS} followers and with none (${testDialect})…`);
    const uploader = await signedInUser(ctx);
    const followed = await buildProject(ctx, { creatorId: uploader.id, name: 'Followed' });
    const alone = await buildProject(ctx, { creatorId: uploader.id, name: 'Alone' });
    const followers: number[] = [];
    for (let i = 0; i < FOLLOWERS; i++) {
      const user = await buildUser(ctx);
      followers.push(user.id);
      await markProject(ctx.db, { userId: user.id, projectId: followed.id, mark: 'follow' });
    }
    const uploadWith = (file: Buffer) => {
      const forms = new Map(
        [followed.id, alone.id].map((id) => [
          id,
          uploadForm(file, 'IMG_0001.jpg', 'image/jpeg', id),
        ]),
      );
      return (projectId: number) => async () => {
        const form = forms.get(projectId);
        if (!form) throw new Error('no form');
        const res = await api(ctx, {
          method: 'POST',
          url: '/api/upload/autoupload',
          token: uploader.token,
          headers: form.headers,
          payload: form.payload,
        });
        if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
      };
    };
    const readAll = () =>
      ctx.db
        .updateTable('notifications')
        .set({ read_at: new Date().toISOString() })
        .where('user_id', 'in', followers)
        .where('read_at', 'is', null)
        .execute();
    const nothing = () => Promise.resolve();

    const rows: Row[] = [];
    const notes: string[] = [];
    const row = (
      measure: string,
      result: { a: number; b: number; ratio: number },
      target?: number,
    ) =>
      measured(
        measure,
        {
          value: millis(result.a),
          baseline: `no followers ${millis(result.b)}`,
          ratio: times(result.ratio),
        },
        result.ratio,
        target === undefined ? undefined : atMost(target),
      );
    const { uploadRounds: rounds, uploadCalls: calls } = options;
    if (options.largePhoto) {
      const jpeg = await photoJpeg(4000, 3000, 90);
      writeFileSync(path.join(ctx.dataDir, 'photo-12mp.jpg'), jpeg);
      const to = uploadWith(jpeg);
      rows.push(
        row(
          `12 MP JPEG upload to ready, ${FOLLOWERS} followers (folded into their unread group)`,
          await compareWithSetup(to(followed.id), to(alone.id), nothing, rounds, calls),
          FANOUT_TARGET,
        ),
        row(
          `12 MP JPEG upload to ready, ${FOLLOWERS} followers (a new notification each)`,
          await compareWithSetup(to(followed.id), to(alone.id), readAll, rounds, calls),
          FANOUT_TARGET,
        ),
      );
      notes.push(`notifications: 12 MP JPEG ${(jpeg.length / 1e6).toFixed(1)} MB`);
    }
    const small = await jpegWithExif();
    const to = uploadWith(small);
    rows.push(
      row(
        `small JPEG upload to ready, ${FOLLOWERS} followers (a new notification each)`,
        await compareWithSetup(to(followed.id), to(alone.id), readAll, rounds, calls),
        options.largePhoto ? undefined : FANOUT_TARGET,
      ),
    );
    // The event and its fan-out alone, as storeUpload's transaction runs them: the difference
    // the rows above measure, without the image work around it.
    const lastUpload = async (projectId: number) =>
      (
        await ctx.db
          .selectFrom('uploads')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()
      ).id ?? 0;
    const record = (projectId: number, uploadId: number) => () =>
      writeTransaction(ctx.db, (trx) =>
        recordEvent(trx, { kind: 'upload.added', actorId: uploader.id, projectId, uploadId }),
      );
    const [inFollowed, inAlone] = [await lastUpload(followed.id), await lastUpload(alone.id)];
    const fine = (ms: number) => `${ms.toFixed(2)} ms`;
    for (const [how, setup] of [
      ['folded', nothing],
      ['a new notification each', readAll],
    ] as const) {
      const result = await compareWithSetup(
        record(followed.id, inFollowed),
        record(alone.id, inAlone),
        setup,
        rounds,
        calls * 10,
      );
      rows.push(
        measured(
          `↳ the upload's event and fan-out alone (a write transaction), ${how}`,
          {
            value: fine(result.a),
            baseline: `no followers ${fine(result.b)}`,
            ratio: times(result.ratio),
          },
          result.ratio,
        ),
      );
    }

    const notified = await ctx.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', 'in', followers)
      .executeTakeFirstOrThrow();
    if (Number(notified.n) === 0) throw new Error('the followers were not notified');
    notes.push(
      `notifications: uploads through app.inject (${testDialect}, ${ctx.storage.kind} storage), ` +
        `${rounds} rounds × ${calls} calls interleaved; small JPEG ${(small.length / 1024).toFixed(0)} KB; ` +
        `${count(Number(notified.n))} notifications made for the followers`,
    );
    return { rows, notes };
  } finally {
    await ctx.close();
  }
}

export async function measureNotifications(
  options: NotificationsOptions,
  progress: (line: string) => void = () => {},
  only?: 'poll' | 'fanout',
): Promise<NotificationsResult> {
  const none = { rows: [], notes: [] };
  const poll = only === 'fanout' ? none : await measurePoll(options, progress);
  const fanout = only === 'poll' ? none : await measureFanout(options, progress);
  return { rows: [...poll.rows, ...fanout.rows], notes: [...poll.notes, ...fanout.notes] };
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const started = performance.now();
  const value = (name: string) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const connections = value('connections');
  const only = value('only');
  if (only !== undefined && only !== 'poll' && only !== 'fanout')
    throw new Error('--only is poll or fanout');
  const result = await measureNotifications(
    {
      ...(quick ? quickNotifications : fullNotifications),
      ...(connections ? { connections: Number(connections) } : {}),
    },
    (line) =>
      console.error(
        `[notifications ${((performance.now() - started) / 1000).toFixed(0)} s] ${line}`,
      ),
    only,
  );
  console.log(`- Node ${process.version}, ${availableParallelism()} cores; ${pinning().note}`);
  for (const note of result.notes) console.log(`- ${note}`);
  console.log();
  console.log(formatTable(result.rows));
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
}
