// The browser settings both Playwright configs share: the single-server suite
// (e2e/playwright.config.ts) and the same specs through nginx against a cluster
// (e2e/playwright.cluster.config.ts). Each config adds its own server, artifacts folder and specs.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { devices, type PlaywrightTestConfig } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './chromium.js';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * `count` distinct ports no other process holds right now, asked of the OS (port 0) by a short
 * child process that holds them all at once: a config is evaluated synchronously, and Node has no
 * synchronous listen. Fixed ports collide when two runs (or a developer's server) share the
 * machine.
 */
export function freePorts(count: number): number[] {
  const script =
    "const net=require('node:net');" +
    `Promise.all(Array.from({length:${count}},()=>new Promise((ok)=>{` +
    "const s=net.createServer();s.listen(0,'127.0.0.1',()=>ok(s));}))).then((all)=>{" +
    "process.stdout.write(all.map((s)=>s.address().port).join(','));all.forEach((s)=>s.close());});";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })
    .split(',')
    .map(Number);
}

/**
 * `count` ports from the environment variable `name` (comma-separated), or free ones written
 * there: the test workers (which load the config again) and the web server script inherit the
 * environment, so they all see the same choice.
 */
export function portsFromEnv(name: string, count = 1): number[] {
  process.env[name] ??= freePorts(count).join(',');
  const ports = process.env[name].split(',').map(Number);
  if (ports.length !== count || !ports.every((p) => Number.isInteger(p) && p > 0 && p < 65536))
    throw new Error(`${name} must hold ${count} port number(s), comma-separated.`);
  return ports;
}

export interface SuiteOptions {
  /** Where this suite's traces, reports and screenshots go (absolute). */
  artifactsDir: string;
  /** The address the browser and `request` use. */
  baseURL: string;
}

/**
 * Everything but the server and the spec list. Also publishes the artifacts folder to the specs
 * (E2E_ARTIFACTS_DIR, inherited by the workers), so their screenshots land in this suite's folder.
 */
export function sharedConfig({ artifactsDir, baseURL }: SuiteOptions): PlaywrightTestConfig {
  process.env.E2E_ARTIFACTS_DIR = artifactsDir;
  /** Playwright's JSON report, which `npm test` reads to list flaky and skipped tests. */
  const jsonReport = process.env.E2E_JSON_REPORT ?? path.join(artifactsDir, 'report.json');
  // Debian's Chromium (no browser download); flags keep it off the closed network.
  const launchOptions = { executablePath: chromiumPath, args: chromiumFlags };
  return {
    testDir: e2eDir,
    outputDir: path.join(artifactsDir, 'results'),
    fullyParallel: false,
    workers: 1,
    // A stray test.only would silently run a subset in CI.
    forbidOnly: !!process.env.CI,
    // The retry stays for diagnosis (its trace shows the second attempt), but a test that needed
    // it fails the run: a flaky test is a failure to fix, not a pass.
    retries: process.env.CI ? 1 : 0,
    failOnFlakyTests: !!process.env.CI,
    // A broken build fails fast instead of timing out route after route.
    maxFailures: process.env.CI ? 8 : 0,
    timeout: 60_000,
    expect: { timeout: 10_000 },
    reporter: [
      ['list'],
      ['html', { outputFolder: path.join(artifactsDir, 'report'), open: 'never' }],
      ['json', { outputFile: jsonReport }],
    ],
    use: {
      baseURL,
      // Recording a trace for every test (`retain-on-failure`) cost about a fifth of the suite's
      // time (browsing + projects: 91 s against 72 s without). In CI a failed test is retried
      // once, and that attempt records the trace; locally, add `--trace on` to keep one.
      trace: process.env.CI ? 'on-first-retry' : 'off',
      screenshot: 'only-on-failure',
      launchOptions,
    },
    projects: [
      {
        name: 'desktop',
        use: {
          ...devices['Desktop Chrome'],
          viewport: { width: 1280, height: 800 },
          launchOptions,
        },
      },
      {
        name: 'phone',
        use: {
          viewport: { width: 375, height: 812 },
          isMobile: true,
          hasTouch: true,
          deviceScaleFactor: 2,
          launchOptions,
        },
        // The phone pass runs the walk and layout suites; journeys run once on desktop.
        grep: /@phone/,
      },
    ],
  };
}
