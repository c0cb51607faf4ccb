#!/usr/bin/env node
// Runs every suite of the project in order and prints what ran, what was skipped and why.
// Usage: npm test [-- --only=typecheck,lint,server,server-pg,web,e2e]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const suites = [
  { name: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] },
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'] },
  { name: 'format', cmd: 'npx', args: ['prettier', '--check', '.', '--log-level', 'warn'] },
  {
    name: 'server',
    label: 'server suite on SQLite',
    cmd: 'npx',
    args: ['vitest', 'run', '--project', 'server'],
    env: { TEST_DB: 'sqlite' },
  },
  {
    name: 'server-pg',
    label: 'server suite on PostgreSQL',
    cmd: 'npx',
    args: ['vitest', 'run', '--project', 'server'],
    env: { TEST_DB: 'postgres' },
    skip: () => (process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set'),
  },
  {
    name: 'web',
    label: 'web component tests',
    cmd: 'npx',
    args: ['vitest', 'run', '--project', 'web'],
  },
  { name: 'build', label: 'production build', cmd: 'npm', args: ['run', 'build'] },
  {
    name: 'e2e',
    label: 'browser suite (Playwright, Chromium)',
    cmd: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    skip: () =>
      existsSync(chromium) ? null : `no Chromium at ${chromium} (apt-get install -y chromium)`,
  },
];

const results = [];
for (const suite of suites) {
  const label = suite.label ?? suite.name;
  if (only && !only.has(suite.name) && !(suite.name === 'build' && only.has('e2e'))) continue;
  const reason = suite.skip?.();
  if (reason) {
    console.log(`\n=== ${label}: SKIPPED (${reason})`);
    results.push({ label, status: 'skipped', reason });
    continue;
  }
  console.log(`\n=== ${label}: running`);
  const started = Date.now();
  const run = spawnSync(suite.cmd, suite.args, {
    stdio: 'inherit',
    env: { ...process.env, ...(suite.env ?? {}) },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const status = run.status === 0 ? 'passed' : 'failed';
  console.log(`=== ${label}: ${status.toUpperCase()} in ${seconds}s`);
  results.push({ label, status, seconds });
}

console.log('\n=== Summary');
for (const r of results) {
  const detail = r.status === 'skipped' ? `skipped: ${r.reason}` : `${r.status} (${r.seconds}s)`;
  console.log(`  ${r.label.padEnd(40)} ${detail}`);
}
const passed = results.filter((r) => r.status === 'passed').length;
const failed = results.filter((r) => r.status === 'failed').length;
const skipped = results.filter((r) => r.status === 'skipped').length;
console.log(`suites: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
