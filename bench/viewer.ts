/// <reference lib="dom" />
/**
 * The full-screen viewer's next-photo latency (issue 13): from the ArrowRight key press to the
 * next photo's display image painted, against a bare fetch of a display image of the same size
 * in the same page, in the same run.
 *
 *   npm run build && npx tsx bench/viewer.ts [--quick]
 *
 * - The app: its own process (`startAppProcess`: NODE_ENV=production, the production build, a
 *   fresh temporary DATA_DIR, SQLite, local media), pinned to CPU 0 where there are 2 cores;
 *   Chromium (Debian's, through Playwright) pinned to CPU 1, at 1280 × 800.
 * - The photos: `count` distinct 12 MP JPEGs uploaded through `POST /api/upload/autoupload` to a
 *   project of their own, so each has a display image (the formatted rendition) of its own.
 * - A round: first the baseline, a `fetch` of one display image the page has never loaded
 *   (`cache: 'no-store'`, read to the end), then ArrowRight in the open viewer, timed in the page
 *   from the keydown event to the paint that shows the new slide's display image (after
 *   `img.decode()`, the next animation frame, then a message task, which runs once that frame is
 *   painted): what the user sees. The viewer preloads its
 *   neighbours, so a fast viewer answers from memory.
 * - Value = median latency; ratio = median of the per-round ratios viewer / bare fetch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import sharp from 'sharp';
import { createDatabase, migrateToLatest } from '../apps/server/src/db/database.js';
import { buildProject, buildUser } from '../apps/server/test/factories.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.js';
import { benchToken, pinning, seedConfig, startAppProcess, type Server } from './http.js';
import { isMain, loadAverage, median } from './measure.js';
import { pinSelf } from './queue.js';
import { atMost, formatTable, measured, millis, times, type Row } from './table.js';
import { hasBuild } from './web-bundle.js';

const TARGET = 1.2;

export interface ViewerOptions {
  /** Photos in the project: one more than the rounds, the viewer starts on the first. */
  rounds: number;
}
export const fullViewer: ViewerOptions = { rounds: 15 };
export const quickViewer: ViewerOptions = { rounds: 5 };

export interface ViewerResult {
  viewerMs: number;
  fetchMs: number;
  ratio: number;
  rows: Row[];
  notes: string[];
}

interface Uploaded {
  id: number;
  formatedLink: string;
}

async function uploadPhotos(origin: string, token: string, projectId: number, count: number) {
  const base = await sharp(await photoJpeg(4000, 3000, 90))
    .raw()
    .toBuffer();
  const uploaded: Uploaded[] = [];
  for (let i = 0; i < count; i++) {
    const jpeg = await sharp(base, { raw: { width: 4000, height: 3000, channels: 3 } })
      .linear(1 - i / 100, i)
      .jpeg({ quality: 90 })
      .toBuffer();
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }),
      `IMG_${2001 + i}.jpg`,
    );
    form.append('createUploadDto', JSON.stringify({ name: `Viewer ${i + 1}`, projectId }));
    const res = await fetch(`${origin}/api/upload/autoupload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
    uploaded.push((await res.json()) as Uploaded);
  }
  // The feed is newest first: the viewer walks from the last upload back.
  return uploaded.reverse();
}

/**
 * In-page script: resolves with the ms from the last keydown to the paint that shows the current
 * slide's `src` image, decoded. A string, so the bundler's helpers (tsx names functions with
 * `__name`) never reach the page.
 */
const paintedAfterKey = (src: string) => `new Promise((resolve, reject) => {
  const timeout = setTimeout(() => reject(new Error('next photo never painted')), 15000);
  const selector = '.yarl__slide_current img[src="' + ${JSON.stringify(src)} + '"]';
  const check = () => {
    const img = document.querySelector(selector);
    const pressed = window.__benchKeydown;
    if (pressed && img && img.complete && !img.className.includes('loading')) {
      // The frame that shows it: after the next animation frame's paint, a message task runs.
      img.decode().then(() => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          clearTimeout(timeout);
          resolve(performance.now() - pressed);
        };
        channel.port2.postMessage(0);
      }));
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

/** In-page script: every keydown's time, kept in `window.__benchKeydown` (reset per round). */
const RECORD_KEYDOWNS = `window.addEventListener('keydown', (event) => {
  window.__benchKeydown = event.timeStamp;
}, { capture: true })`;

export async function measureViewer(
  options: ViewerOptions,
  progress: (line: string) => void = () => undefined,
): Promise<ViewerResult> {
  if (!hasBuild()) throw new Error('apps/web/dist has no build: run `npm run build` first.');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-viewer-'));
  const pins = pinning();
  let server: Server | null = null;
  let browser: Browser | null = null;
  let unpin = () => undefined as void;
  const loadBefore = loadAverage();
  try {
    const dataDir = path.join(dir, 'data');
    const db = createDatabase(seedConfig(dataDir).database);
    let user;
    let projectId;
    try {
      await migrateToLatest(db);
      user = await buildUser({ db }, { firstname: 'Bench', lastname: 'Viewer' });
      projectId = (await buildProject({ db }, { creatorId: user.id, name: 'Viewer bench' })).id;
    } finally {
      await db.destroy();
    }
    server = await startAppProcess(
      pins.server,
      dataDir,
      path.join(dir, 'app.log'),
      [],
      [/place search (ready|could not)/],
    );
    const origin = `http://127.0.0.1:${server.port}`;
    const token = await benchToken(origin, user.email);
    progress(`viewer: uploading ${options.rounds + 1} photos…`);
    const photos = await uploadPhotos(origin, token, projectId, options.rounds + 1);

    const clientCpu = pins.load[2];
    if (clientCpu) unpin = pinSelf(clientCpu);
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const context = await browser.newContext({
      baseURL: origin,
      viewport: { width: 1280, height: 800 },
    });
    await context.addInitScript(
      ([value, userJson]) => {
        window.localStorage.setItem('sitelog.token', value);
        window.localStorage.setItem('sitelog.user', userJson);
      },
      [
        token,
        JSON.stringify({
          id: user.id,
          firstname: user.firstname,
          lastname: user.lastname,
          email: user.email,
          isAdmin: user.isAdmin,
        }),
      ] as const,
    );
    const page = await context.newPage();
    const first = photos[0];
    if (!first) throw new Error('no photos');
    await page.goto(`/project/${projectId}?photo=${first.id}`);
    await page.locator(`[role="dialog"] img[src="${first.formatedLink}"]`).waitFor();
    // The first press is measured once the page has settled: the service worker, registered
    // after the load event, first downloads the whole app for its precache, and a press during
    // that was at times never seen by the viewer (its first round never painted).
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await page.waitForLoadState('networkidle');
    await page.evaluate(RECORD_KEYDOWNS);

    const viewer: number[] = [];
    const fetched: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const next = photos[round + 1];
      // A display image this page has not loaded: two ahead of the next one is beyond the
      // viewer's preload window only at the end, so use the bare URL with a cache-busting query.
      if (!next) throw new Error('not enough photos');
      const bare = await page.evaluate<number>(`(async () => {
        const t0 = performance.now();
        const res = await fetch(${JSON.stringify(next.formatedLink)} + '&bench=' + Math.random(), { cache: 'no-store' });
        await res.arrayBuffer();
        return performance.now() - t0;
      })()`);
      await page.evaluate('window.__benchKeydown = 0');
      await page.keyboard.press('ArrowRight');
      const latency = page.evaluate(paintedAfterKey(next.formatedLink));
      const ms = (await latency) as number;
      viewer.push(ms);
      fetched.push(bare);
      ratios.push(ms / bare);
      progress(`viewer: round ${round + 1}: ${ms.toFixed(1)} ms vs fetch ${bare.toFixed(1)} ms`);
    }
    const viewerMs = median(viewer);
    const fetchMs = median(fetched);
    const ratio = median(ratios);
    const notes = [
      `${options.rounds} rounds, ${photos.length} photos of 4000 × 3000; ${pins.note}`,
      `load average ${loadBefore} → ${loadAverage()}`,
    ];
    return {
      viewerMs,
      fetchMs,
      ratio,
      notes,
      rows: [
        measured(
          'viewer: ArrowRight to the next display image painted (Chromium, 1280 px)',
          {
            value: millis(viewerMs),
            baseline: `bare fetch of a display image ${millis(fetchMs)}`,
            ratio: times(ratio),
          },
          ratio,
          atMost(TARGET),
        ),
      ],
    };
  } finally {
    unpin();
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const result = await measureViewer(quick ? quickViewer : fullViewer, (line) =>
    process.stderr.write(`${line}\n`),
  );
  process.stdout.write(`${formatTable(result.rows)}\n\n${result.notes.join('\n')}\n`);
}
