import { execFileSync } from 'node:child_process';
import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './chromium.js';

/**
 * A port no other process holds right now, asked of the OS (port 0) by a short child process:
 * the config is evaluated synchronously, and Node has no synchronous listen. Fixed ports collide
 * when two runs (or a developer's server) share the machine.
 */
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();" +
    "s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();});";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

// E2E_PORT overrides. The choice goes into the environment, so that the test workers (which load
// this config again) and the web server (e2e/server.mjs) all use the same port.
process.env.E2E_PORT ??= String(freePort());
const port = Number(process.env.E2E_PORT);
/** Playwright's JSON report, which `npm test` reads to list flaky and skipped tests. */
const jsonReport = process.env.E2E_JSON_REPORT ?? './.artifacts/report.json';

// Debian's Chromium (no browser download); flags keep it off the closed network.
const launchOptions = { executablePath: chromiumPath, args: chromiumFlags };

export default defineConfig({
  testDir: '.',
  outputDir: './.artifacts/results',
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
    ['html', { outputFolder: './.artifacts/report', open: 'never' }],
    ['json', { outputFile: jsonReport }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
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
  webServer: {
    command: 'node e2e/server.mjs',
    cwd: '..',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // SIGTERM lets e2e/server.mjs stop the app and remove its temporary data dir.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
