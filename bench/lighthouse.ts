/// <reference lib="dom" />
/**
 * Lighthouse (mobile, its default config) on Home of the production build, signed in as the
 * sample admin with the sample workspace's 18 latest uploads: 5 runs, median performance score,
 * CLS, LCP and TBT, plus the initial JavaScript (gzip, as bench/web-bundle.ts counts it).
 * Builds nothing: run `npm run build` first. Starts the app itself on a free port and a fresh
 * temporary data dir, and Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 * BENCH_LIGHTHOUSE_RUNS changes the run count; BENCH_LIGHTHOUSE_JSON=file keeps the last report.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { LoginHints, LoginResponse, Upload } from '@sitelog/shared';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.js';
import { median } from './measure.js';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const SAMPLE_ADMIN = 'dana.whitfield@example.com';
const HOME_TILES = 18;
const root = fileURLToPath(new URL('..', import.meta.url));
// WEB_DIST_DIR (the app's own setting, passed on to it) measures another build, e.g. one made with
// `vite build --outDir` from an older commit, for a before/after in one session.
const dist = process.env.WEB_DIST_DIR
  ? path.resolve(process.env.WEB_DIST_DIR)
  : path.join(root, 'apps/web/dist');
const CHROME_FLAGS = ['--headless=new', ...chromiumFlags];

if (!existsSync(path.join(dist, 'index.html')))
  throw new Error(`${dist} has no index.html: run \`npm run build\` first.`);

/** The scripts and modulepreloads of the built index.html, gzipped one by one (KiB). */
function initialJsKib(): number {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file))).length,
    0,
  );
  return bytes / 1024;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(origin: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('The app exited before it answered /api/health.');
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('The app did not answer /api/health within 120 s.');
}

async function signInAsSampleAdmin(origin: string): Promise<LoginResponse> {
  const hints = (await (await fetch(`${origin}/api/auth/hints`)).json()) as LoginHints;
  if (!hints.sample) throw new Error('The app has no sample account (SAMPLE_DATA off?).');
  const res = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: { email: SAMPLE_ADMIN, password: hints.sample.password } }),
  });
  if (!res.ok) throw new Error(`Sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as LoginResponse;
}

interface Run {
  score: number;
  cls: number;
  lcp: number;
  tbt: number;
  fcp: number;
  /** Script bytes the page transferred (its first route's chunks included), KiB. */
  scriptKib: number;
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-lighthouse-'));
const app = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SAMPLE_DATA: 'on',
    LOG_LEVEL: 'warn',
  },
});
let appExited = false;
app.on('exit', () => {
  appExited = true;
});
let chrome: chromeLauncher.LaunchedChrome | undefined;

try {
  await waitForHealth(origin, () => appExited);
  const login = await signInAsSampleAdmin(origin);
  const latest = (await (
    await fetch(`${origin}/api/upload/latest/${HOME_TILES}`, {
      headers: { authorization: `Bearer ${login.token}` },
    })
  ).json()) as Upload[];
  if (latest.length !== HOME_TILES)
    throw new Error(`Home would show ${latest.length} tiles, not ${HOME_TILES}.`);

  chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: CHROME_FLAGS,
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  // The session as the web app keeps it (lib/session.ts): written once on the app's origin and
  // kept across runs by `disableStorageReset`; the HTTP cache is cleared before each run instead.
  await page.goto(`${origin}/favicon.svg`);
  const user = {
    id: login.id,
    firstname: login.firstname,
    lastname: login.lastname,
    email: login.email,
    isAdmin: login.isAdmin,
  };
  await page.evaluate(
    (token, userJson) => {
      window.localStorage.setItem('sitelog.token', token);
      window.localStorage.setItem('sitelog.user', userJson);
    },
    login.token,
    JSON.stringify(user),
  );
  // Home must really show the tiles for the session written above.
  await page.goto(`${origin}/`);
  await page.waitForFunction(
    // The feed is one list, or (grouped by day, issue 13) a section of one list per day.
    (count) =>
      document.querySelectorAll(
        '[data-upload-feed][aria-label="Latest uploads"] > li, [data-upload-feed][aria-label="Latest uploads"] ul > li',
      ).length === count,
    { timeout: 30_000 },
    HOME_TILES,
  );
  const cdp = await page.createCDPSession();

  const runs: Run[] = [];
  // A run whose trace Lighthouse could not record (e.g. NO_NAVSTART on a busy machine) is run
  // again, a few times at most; any other failure stops the bench.
  let retries = 3;
  for (let i = 0; i < RUNS; i++) {
    // Every run is a first visit's load: no HTTP cache, and no service worker or its precache
    // (installed by the app since issue 12; it would serve every script of the runs after the
    // first). localStorage, and with it the session, stays.
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', {
      origin,
      storageTypes: 'service_workers,cache_storage',
    });
    const result = await lighthouse(`${origin}/`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: true,
    });
    if (!result) throw new Error('Lighthouse returned no result.');
    const { lhr } = result;
    if (lhr.runtimeError) {
      if (lhr.runtimeError.code === 'NO_NAVSTART' && retries-- > 0) {
        console.log(`run ${i + 1}: Lighthouse recorded no trace (NO_NAVSTART); running it again`);
        i--;
        continue;
      }
      throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    }
    if (lhr.finalDisplayedUrl !== `${origin}/`)
      throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not Home: signed out?`);
    const requests = (
      lhr.audits['network-requests']?.details as {
        items: Array<{ url: string; resourceType?: string; transferSize?: number }>;
      }
    ).items;
    const remote = requests.filter(
      (r) => !r.url.startsWith(origin) && !/^(data|blob):/.test(r.url),
    );
    if (remote.length > 0)
      throw new Error(`Home fetched from elsewhere: ${remote.map((r) => r.url).join(', ')}`);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const run: Run = {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      cls: numeric('cumulative-layout-shift'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      fcp: numeric('first-contentful-paint'),
      scriptKib:
        requests
          .filter((r) => r.resourceType === 'Script')
          .reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024,
    };
    runs.push(run);
    // The whole report of the last run, for looking into what a number is made of.
    if (process.env.BENCH_LIGHTHOUSE_JSON && i === RUNS - 1)
      writeFileSync(process.env.BENCH_LIGHTHOUSE_JSON, JSON.stringify(lhr, null, 1));
    console.log(
      `run ${i + 1}: score ${run.score}  CLS ${run.cls.toFixed(3)}  LCP ${run.lcp.toFixed(0)} ms  ` +
        `TBT ${run.tbt.toFixed(0)} ms  FCP ${run.fcp.toFixed(0)} ms  scripts ${run.scriptKib.toFixed(1)} KiB`,
    );
  }
  await browser.disconnect();

  const med = (key: keyof Run) => median(runs.map((run) => run[key]));
  console.log(
    `\nLighthouse ${lhVersion()} mobile, Home with ${HOME_TILES} tiles, median of ${RUNS}:`,
  );
  console.log(`  performance score  ${med('score')}   (target ≥ 95)`);
  console.log(`  CLS                ${med('cls').toFixed(3)} (target ≤ 0.05)`);
  console.log(`  LCP                ${med('lcp').toFixed(0)} ms`);
  console.log(`  TBT                ${med('tbt').toFixed(0)} ms`);
  console.log(`  FCP                ${med('fcp').toFixed(0)} ms`);
  console.log(`  scripts on Home    ${med('scriptKib').toFixed(1)} KiB transferred`);
  console.log(`  initial JS         ${initialJsKib().toFixed(1)} KiB gzip (target ≤ 140)`);
} finally {
  chrome?.kill();
  app.kill('SIGTERM');
  await new Promise((resolve) => (appExited ? resolve(null) : app.once('exit', resolve)));
  rmSync(dataDir, { recursive: true, force: true });
}

function lhVersion(): string {
  const pkg = JSON.parse(
    readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8'),
  ) as { version: string };
  return pkg.version;
}
