#!/usr/bin/env node
// The long forms of the suites whose reduced forms run in `npm test`: API fuzz (5,000 requests),
// concurrency (1,000 uploads from 50 clients) and crash consistency (20 SIGKILL runs), each on
// SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
// Usage: npm run test:soak [-- --only=fuzz,concurrency,crash]
import { spawnSync } from 'node:child_process';

const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;

const suites = [
  { name: 'fuzz', file: 'apps/server/test/api-fuzz.test.ts', env: { FUZZ_RUNS: '5000' } },
  {
    name: 'concurrency',
    file: 'apps/server/src/modules/uploads/upload-concurrency.test.ts',
    env: { CONCURRENCY_UPLOADS: '1000', CONCURRENCY_CLIENTS: '50' },
  },
  { name: 'crash', file: 'apps/server/test/crash-consistency.test.ts', env: { CRASH_RUNS: '20' } },
];

const dialects = ['sqlite'];
if (process.env.TEST_DATABASE_URL) dialects.push('postgres');
else console.log('TEST_DATABASE_URL is not set: soaking on SQLite only');

const failed = [];
for (const suite of suites) {
  if (only && !only.has(suite.name)) continue;
  for (const dialect of dialects) {
    console.log(`\n== ${suite.name} on ${dialect} ==`);
    const started = Date.now();
    const result = spawnSync('npx', ['vitest', 'run', '--project', 'server', suite.file], {
      stdio: 'inherit',
      env: { ...process.env, ...suite.env, TEST_DB: dialect },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `== ${suite.name} on ${dialect}: ${result.status === 0 ? 'passed' : 'FAILED'} (${seconds} s)`,
    );
    if (result.status !== 0) failed.push(`${suite.name} on ${dialect}`);
  }
}
if (failed.length > 0) {
  console.error(`\nsoak failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nsoak passed');
