/// <reference lib="dom" />
/**
 * Field uploads through the browser queue (issue 12): the throughput of a 20-photo batch chosen
 * at once on the uploader in Chromium, written to IndexedDB and sent by the page's background
 * queue (2 in flight), against 20 sequential `POST /api/upload/autoupload` calls from Node with
 * the same files, in the same run.
 *
 *   npm run build && npx tsx bench/queue.ts [--quick] [--rounds=N]
 *
 * - The app: its own process (`startAppProcess`: NODE_ENV=production, the production build of
 *   apps/web, a fresh temporary DATA_DIR, SQLite, local media, LOG_LEVEL default), seeded
 *   before it starts with one account and a fresh project per batch (the test factories).
 * - The photos: 20 generated 12 MP JPEGs (≈ 4 MB each, noise over gradients as
 *   apps/server/test/images.ts `photoJpeg` makes them, each with its own pixels), written to the
 *   temp dir; both sides send these files.
 * - The browser: Debian's Chromium through Playwright (e2e/chromium.ts), a persistent profile
 *   in the temp dir (IndexedDB on disk, as on a phone), a phone viewport, signed in through
 *   localStorage. One page on /uploader/{project}/create; the 20 files are set at once on
 *   "Choose photos", timed from `setInputFiles` until the 20 tiles of "Photos of this visit"
 *   read "Sent" (the server's answer; a MutationObserver in the page, no polling).
 * - The baseline: 20 sequential calls from this process (fetch, FormData: the `file` part read
 *   from disk, then `createUploadDto` with a fresh clientId, as the web sends it), timed from
 *   the first call to the 20th answer.
 * - Each batch goes to a project of its own; the rounds alternate which side goes first; after
 *   each batch the project is checked to hold exactly 20 uploads. Value = median photos/s;
 *   ratio = median of the per-round ratios browser / Node.
 * - Pinning: with 2+ cores and `taskset`, the app on CPU 0, Chromium and the Node client (this
 *   process) on CPU 1, as the HTTP bench pins its load.
 * - The notes say, per browser batch, when its first upload call left, how long none and how
 *   long 2 were in flight, and how many the service worker sent (Background Sync).
 *
 * `measureQueue` is also called by bench/run.ts (`npm run bench`, full run only).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright';
import sharp from 'sharp';
import { createDatabase, migrateToLatest } from '../apps/server/src/db/database.js';
import { buildProject, buildUser } from '../apps/server/test/factories.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.js';
import { benchToken, pinning, seedConfig, startAppProcess, type Server } from './http.js';
import { isMain, loadAverage, median } from './measure.js';
import { atLeast, formatTable, measured, times, type Row } from './table.js';
import { hasBuild } from './web-bundle.js';

const UPLOAD_PATH = '/api/upload/autoupload';
const WIDTH = 4000;
const HEIGHT = 3000;
/** Photos of the warm-up batch on each side (loads the code paths, fills the caches). */
const WARMUP_PHOTOS = 2;
/** The longest one batch may take before the bench gives up. */
const BATCH_TIMEOUT_MS = 180_000;
const TARGET = 0.8;
/** The e2e suite's phone (e2e/field-capture.spec.ts). */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

export interface QueueOptions {
  rounds: number;
  photos: number;
}

export const fullQueue: QueueOptions = { rounds: 3, photos: 20 };
export const quickQueue: QueueOptions = { rounds: 1, photos: 20 };

export interface QueueRound extends BatchCalls {
  /** Seconds and photos per second of each side's batch. */
  browserSeconds: number;
  nodeSeconds: number;
  browser: number;
  node: number;
}

export interface QueueResult {
  /** Median photos/s of each side, and the median of the per-round ratios browser / Node. */
  browser: number;
  node: number;
  ratio: number;
  rounds: QueueRound[];
  photos: number;
  photoBytes: number;
  rows: Row[];
  notes: string[];
}

/** `count` distinct 12 MP photos: one `photoJpeg`, its pixels shifted in level per photo. */
async function makePhotos(dir: string, count: number): Promise<{ files: string[]; bytes: number }> {
  const base = await sharp(await photoJpeg(WIDTH, HEIGHT, 90))
    .raw()
    .toBuffer();
  const jpegs = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      sharp(base, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
        .linear(1 - i / 200, i)
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
  const files = jpegs.map((jpeg, i) => {
    const file = path.join(dir, `IMG_${1001 + i}.jpg`);
    writeFileSync(file, jpeg);
    return file;
  });
  return { files, bytes: jpegs.reduce((sum, jpeg) => sum + jpeg.length, 0) };
}

/** The account and the projects (a warm-up one, then one per batch), before the app starts. */
async function seed(dataDir: string, projects: number) {
  const db = createDatabase(seedConfig(dataDir).database);
  try {
    await migrateToLatest(db);
    const user = await buildUser({ db }, { firstname: 'Bench', lastname: 'Uploader' });
    const ids: number[] = [];
    for (let i = 0; i < projects; i++)
      ids.push((await buildProject({ db }, { creatorId: user.id, name: `Queue ${i}` })).id);
    return { user, projectIds: ids };
  } finally {
    await db.destroy();
  }
}

/**
 * Pins every thread of this process to `cpus` (Chromium, started from it, inherits the mask);
 * returns how to put the previous mask back.
 */
export function pinSelf(cpus: string): () => void {
  const pid = String(process.pid);
  const current = spawnSync('taskset', ['-c', '-p', pid], { encoding: 'utf8' });
  const before = /:\s*(\S+)\s*$/.exec(current.stdout)?.[1];
  const set = (list: string) => {
    const res = spawnSync('taskset', ['-a', '-c', '-p', list, pid], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`taskset -p ${list} failed: ${res.stderr}`);
  };
  set(cpus);
  return () => {
    if (before) set(before);
  };
}

/** Waits until a service worker controls the page (it is installed on the first visit). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
  });
}

/** What the browser's upload calls did during one batch. */
export interface BatchCalls {
  /** Calls the page sent (XHR) and the service worker sent (Background Sync, fetch). */
  fromPage: number;
  fromWorker: number;
  /** Most calls in flight at once. */
  maxInFlight: number;
  /** Answers other than 200 (the queue tries those photos again). */
  notOk: number[];
  /** ms from `setInputFiles` until the first call left (the photos are stored first). */
  firstCallMs: number;
  /** ms between the first call and the last answer with no call in flight, with 2. */
  idleMs: number;
  twoMs: number;
}

/**
 * The browser's upload calls as the context sees them (the page's XHR and the worker's fetch),
 * timestamped here: a call is in flight from its request until its answer has arrived.
 */
function watchUploads(context: BrowserContext) {
  let events: { at: number; delta: 1 | -1 }[] = [];
  let fromPage = 0;
  let fromWorker = 0;
  let notOk: number[] = [];
  const isUpload = (request: Request) =>
    request.method() === 'POST' && new URL(request.url()).pathname === UPLOAD_PATH;
  context.on('request', (request) => {
    if (!isUpload(request)) return;
    events.push({ at: performance.now(), delta: 1 });
    if (request.serviceWorker()) fromWorker += 1;
    else fromPage += 1;
  });
  const done = (request: Request) => {
    if (isUpload(request)) events.push({ at: performance.now(), delta: -1 });
  };
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  context.on('response', (response) => {
    if (isUpload(response.request()) && response.status() !== 200) notOk.push(response.status());
  });
  return {
    /** Forgets what was seen so far (between batches nothing is in flight). */
    reset() {
      events = [];
      fromPage = 0;
      fromWorker = 0;
      notOk = [];
    },
    /** The calls since the last reset, for a batch whose files were set at `start`. */
    batch(start: number): BatchCalls {
      let inFlight = 0;
      let maxInFlight = 0;
      let idleMs = 0;
      let twoMs = 0;
      for (const [i, event] of events.entries()) {
        const next = events[i + 1];
        inFlight += event.delta;
        maxInFlight = Math.max(maxInFlight, inFlight);
        if (!next) break;
        if (inFlight === 0) idleMs += next.at - event.at;
        if (inFlight >= 2) twoMs += next.at - event.at;
      }
      const firstCallMs = (events[0]?.at ?? Number.NaN) - start;
      return { fromPage, fromWorker, maxInFlight, notOk, firstCallMs, idleMs, twoMs };
    },
  };
}

/**
 * Opens the uploader of `projectId` and sets `files` on "Choose photos": seconds from
 * `setInputFiles` until the visit's `files.length` tiles read "Sent". A photo the server refuses
 * ("Not accepted") fails the bench.
 */
async function browserBatch(
  page: Page,
  projectId: number,
  files: string[],
): Promise<{ start: number; seconds: number }> {
  await page.goto(`/uploader/${projectId}/create`);
  const input = page.getByLabel('Choose photos');
  await input.waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
  const tiles = page.getByRole('list', { name: 'Photos of this visit' }).getByRole('listitem');
  if ((await tiles.count()) !== 0) throw new Error(`project ${projectId}: the visit is not empty`);
  // Installed before the files are set: resolves when every tile reads "Sent". (No named
  // functions inside: tsx would wrap them in a helper the page does not have.)
  await page.evaluate(
    ({ count, timeoutMs }) => {
      const w = window as unknown as { benchSent?: Promise<void> };
      w.benchSent = new Promise<void>((resolve, reject) => {
        const observer = new MutationObserver(() => {
          const captions = Array.from(
            document.querySelectorAll('ul[aria-label="Photos of this visit"] > li'),
            (tile) => tile.querySelector('[data-photo-status]')?.textContent?.trim() ?? '',
          );
          const refused = captions.findIndex((caption) => caption.startsWith('Not accepted'));
          if (refused >= 0) {
            observer.disconnect();
            reject(new Error(`tile ${refused + 1}: ${captions[refused]}`));
          } else if (captions.filter((caption) => caption === 'Sent').length >= count) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        setTimeout(() => {
          observer.disconnect();
          reject(new Error(`not every photo was sent within ${timeoutMs} ms`));
        }, timeoutMs);
      });
    },
    { count: files.length, timeoutMs: BATCH_TIMEOUT_MS },
  );
  const start = performance.now();
  await input.setInputFiles(files);
  await page.evaluate(() => (window as unknown as { benchSent?: Promise<void> }).benchSent);
  const seconds = (performance.now() - start) / 1000;
  // The same, as the e2e suite reads it.
  const sent = await tiles.getByText('Sent', { exact: true }).count();
  if (sent !== files.length) throw new Error(`${sent} of ${files.length} tiles read "Sent"`);
  return { start, seconds };
}

/** Seconds for `files` sent one after the other from Node, as the web's queue sends each. */
async function nodeBatch(
  origin: string,
  token: string,
  projectId: number,
  files: string[],
): Promise<number> {
  const start = performance.now();
  for (const file of files) {
    const form = new FormData();
    form.append('file', await openAsBlob(file, { type: 'image/jpeg' }), path.basename(file));
    form.append(
      'createUploadDto',
      JSON.stringify({ name: '', description: '', projectId, clientId: randomUUID() }),
    );
    const res = await fetch(`${origin}${UPLOAD_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      body: form,
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${body.slice(0, 300)}`);
  }
  return (performance.now() - start) / 1000;
}

/** Checks that the project holds exactly `count` uploads. */
async function checkProject(origin: string, token: string, projectId: number, count: number) {
  const res = await fetch(`${origin}/api/upload/project/${projectId}/latest?limit=48`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`project ${projectId} feed: ${res.status}`);
  const uploads = ((await res.json()) as unknown[]).length;
  if (uploads !== count) throw new Error(`project ${projectId}: ${uploads} uploads, not ${count}`);
}

export async function measureQueue(
  options: QueueOptions,
  progress: (line: string) => void = () => {},
): Promise<QueueResult> {
  if (!hasBuild()) throw new Error('no production build of the web app: run `npm run build`');
  const loadAtStart = loadAverage();
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-queue-'));
  const dataDir = path.join(dir, 'data');
  const pins = pinning();
  let server: Server | null = null;
  let context: BrowserContext | null = null;
  let unpin: (() => void) | null = null;
  try {
    progress(`queue: ${options.photos} photos of ${WIDTH}×${HEIGHT}…`);
    const photos = await makePhotos(dir, options.photos);
    const warmFiles = photos.files.slice(0, WARMUP_PHOTOS);
    // Projects: the warm-up's two, then each round's two.
    const { user, projectIds } = await seed(dataDir, 2 + options.rounds * 2);
    const project = (() => {
      let next = 0;
      return () => {
        const id = projectIds[next++];
        if (id === undefined) throw new Error('not enough projects seeded');
        return id;
      };
    })();

    // The gazetteer loads on the app's core right after listen: measure after it.
    server = await startAppProcess(
      pins.server,
      dataDir,
      path.join(dir, 'app.log'),
      [],
      [/place search (ready|could not)/],
    );
    const origin = `http://127.0.0.1:${server.port}`;
    const token = await benchToken(origin, user.email);
    const sessionUser = {
      id: user.id,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      isAdmin: user.isAdmin,
    };

    // The clients on the other core: this process (the Node side) and Chromium started from it.
    const clientCpu = pins.load[2];
    if (clientCpu) unpin = pinSelf(clientCpu);
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: chromiumPath,
      args: chromiumFlags,
      baseURL: origin,
      ...PHONE,
    });
    const chromiumVersion = context.browser()?.version() ?? '';
    await context.addInitScript(
      ([value, userJson]) => {
        window.localStorage.setItem('sitelog.token', value);
        window.localStorage.setItem('sitelog.user', userJson);
      },
      [token, JSON.stringify(sessionUser)] as const,
    );
    const uploads = watchUploads(context);
    const page = context.pages()[0] ?? (await context.newPage());

    progress('queue: warming up…');
    await page.goto(`/uploader/${projectIds[0]}/create`);
    await waitForServiceWorker(page);
    const warmBrowser = project();
    await browserBatch(page, warmBrowser, warmFiles);
    const warmNode = project();
    await nodeBatch(origin, token, warmNode, warmFiles);
    await checkProject(origin, token, warmBrowser, warmFiles.length);
    await checkProject(origin, token, warmNode, warmFiles.length);
    const rounds: QueueRound[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const browserProject = project();
      const nodeProject = project();
      let browserSide: { seconds: number; calls: BatchCalls } | null = null;
      let nodeSeconds = 0;
      // Alternating which side goes first, so a drift of the machine's load favours neither.
      const sides = round % 2 ? (['node', 'browser'] as const) : (['browser', 'node'] as const);
      for (const side of sides) {
        if (side === 'browser') {
          uploads.reset();
          const { start, seconds } = await browserBatch(page, browserProject, photos.files);
          browserSide = { seconds, calls: uploads.batch(start) };
          await checkProject(origin, token, browserProject, photos.files.length);
        } else {
          nodeSeconds = await nodeBatch(origin, token, nodeProject, photos.files);
          await checkProject(origin, token, nodeProject, photos.files.length);
        }
      }
      if (!browserSide) throw new Error('the browser batch is missing');
      const result: QueueRound = {
        ...browserSide.calls,
        browserSeconds: browserSide.seconds,
        nodeSeconds,
        browser: photos.files.length / browserSide.seconds,
        node: photos.files.length / nodeSeconds,
      };
      rounds.push(result);
      progress(
        `queue round ${round + 1}/${options.rounds}: browser ${result.browser.toFixed(2)} /s ` +
          `(${result.browserSeconds.toFixed(1)} s), Node ${result.node.toFixed(2)} /s ` +
          `(${nodeSeconds.toFixed(1)} s), ${(result.browser / result.node).toFixed(2)}×`,
      );
    }

    const browser = median(rounds.map((r) => r.browser));
    const node = median(rounds.map((r) => r.node));
    const ratio = median(rounds.map((r) => r.browser / r.node));
    const fromWorker = rounds.reduce((sum, r) => sum + r.fromWorker, 0);
    const notOk = rounds.flatMap((r) => r.notOk);
    const mb = photos.bytes / photos.files.length / 1e6;
    const rows = [
      measured(
        `upload throughput, ${options.photos}-photo batch through the browser queue (Chromium)`,
        {
          value: `${browser.toFixed(2)} /s`,
          baseline: `${options.photos} sequential autoupload from Node ${node.toFixed(2)} /s`,
          ratio: times(ratio),
        },
        ratio,
        atLeast(TARGET),
      ),
    ];
    const notes = [
      clientCpu
        ? `app pinned to CPU 0, Chromium and the Node client to CPU ${clientCpu}`
        : pins.note,
      `${options.photos} photos of ${WIDTH}×${HEIGHT}, ${mb.toFixed(1)} MB each on average, the same files on both sides; ` +
        `${options.rounds} round${options.rounds === 1 ? '' : 's'} after a warm-up batch of ${WARMUP_PHOTOS}, ` +
        'alternating which side goes first, each batch to a fresh project',
      `browser: Chromium ${chromiumVersion}, persistent profile (IndexedDB on disk), phone ` +
        'viewport; timed from setInputFiles on "Choose photos" until every tile reads "Sent"',
      'per round, browser vs Node: ' +
        rounds
          .map(
            (r) =>
              `${r.browser.toFixed(2)} /s (${r.browserSeconds.toFixed(1)} s) vs ${r.node.toFixed(2)} /s ` +
              `(${r.nodeSeconds.toFixed(1)} s), ${(r.browser / r.node).toFixed(2)}×`,
          )
          .join('; '),
      "the browser's calls per round: " +
        rounds
          .map(
            (r) =>
              `first after ${r.firstCallMs.toFixed(0)} ms, none in flight for ${r.idleMs.toFixed(0)} ms ` +
              `and 2+ for ${r.twoMs.toFixed(0)} ms after it, at most ${r.maxInFlight}, ` +
              `${r.fromPage} from the page and ${r.fromWorker} from the service worker`,
          )
          .join('; '),
      `non-200 answers to the browser's uploads: ${notOk.length ? notOk.join(', ') : 'none'}` +
        (fromWorker ? `; the service worker sent ${fromWorker} calls (Background Sync)` : ''),
      `load average at start ${loadAtStart}, at end ${loadAverage()}`,
    ];
    return {
      browser,
      node,
      ratio,
      rounds,
      photos: options.photos,
      photoBytes: photos.bytes,
      rows,
      notes,
    };
  } finally {
    await context?.close().catch(() => undefined);
    unpin?.();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const rounds = process.argv.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length);
  const options = quick ? quickQueue : fullQueue;
  const started = performance.now();
  const result = await measureQueue(
    { ...options, ...(rounds ? { rounds: Number(rounds) } : {}) },
    (line) => console.error(line),
  );
  console.log(
    `${new Date().toISOString().slice(0, 16)} UTC, Node ${process.version}, ` +
      `${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log(formatTable(result.rows));
}
