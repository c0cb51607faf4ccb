#!/usr/bin/env node
// Runs every suite of the project in order and prints what ran, what was skipped and why.
// Usage: npm test [-- --only=typecheck,lint,format,server,server-pg,web,build,e2e,cluster,cluster-e2e,bench]
//
// With CI=true nothing may be skipped silently: a skipped suite, a skipped test (other than the
// intended ones allowed below), a missing photo corpus or a flaky browser test fails the run.
// Locally, skips are allowed but listed in the summary with their reasons.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ci = ['true', '1', 'yes'].includes((process.env.CI ?? '').toLowerCase());
const scratch = mkdtempSync(path.join(tmpdir(), 'sitelog-test-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * Tests that skip on purpose, by suite. Each names the test (the start of its full name, suites
 * included) and why skipping it there is right. Anything else that skips fails the run in CI.
 */
const allowedSkips = {
  server: [
    {
      test: 'PostgreSQL connection pool',
      reason: 'PostgreSQL-only (pool settings); runs in the server suite on PostgreSQL',
    },
    {
      test: 'PostgreSQL write transactions',
      reason:
        'PostgreSQL-only (deadlocks and serialization failures); runs in the server suite on PostgreSQL',
    },
  ],
};

/** Why the cluster suites cannot run here, or null when they can. */
function clusterProblem() {
  if (!process.env.TEST_DATABASE_URL) return 'TEST_DATABASE_URL is not set';
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].some((file) => existsSync(file));
  return nginx ? null : 'no nginx (apt-get install -y nginx)';
}

const photoExtensions = /\.(jpe?g|heic|heif|png|webp|tiff?|avif)$/i;

/** Why PHOTO_CORPUS_DIR cannot serve the corpus tests, or null when it can. */
function corpusProblem() {
  const dir = process.env.PHOTO_CORPUS_DIR;
  if (!dir) return 'PHOTO_CORPUS_DIR is not set (CI points it at ../shared/fixtures/photos)';
  try {
    if (!statSync(dir).isDirectory()) return `PHOTO_CORPUS_DIR=${dir} is not a folder`;
    accessSync(dir, constants.R_OK | constants.X_OK);
    const photos = readdirSync(dir).filter((name) => photoExtensions.test(name));
    if (photos.length === 0) return `PHOTO_CORPUS_DIR=${dir} holds no photos`;
    accessSync(path.join(dir, photos[0]), constants.R_OK);
  } catch (error) {
    return `PHOTO_CORPUS_DIR=${dir} cannot be read (${error.code ?? error.message})`;
  }
  return null;
}

/** Vitest: the default reporter for the log, plus one that lists what was skipped and why. */
function vitest(...projects) {
  return {
    cmd: 'npx',
    args: [
      'vitest',
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      `--reporter=${path.join(root, 'scripts', 'vitest-skips-reporter.mjs')}`,
    ],
    report: 'vitest',
  };
}

/*
 * Suites in order. Consecutive suites with the same `together` run at the same time: the static
 * checks are single-threaded (tsc, ESLint, Prettier), so on two cores they take the time of the
 * longest instead of the sum. Within such a group, suites with the same `lane` run one after the
 * other (the browser suite needs the build). A suite marked `live` prints as it runs; the others
 * of the group print their output when they end.
 *
 * The web tests, then the cluster suite, run beside the build and the browser suite. The browser
 * suite waits on the browser, the server and its own timeouts part of the time (about 1.4 cores
 * with Chromium's processes counted, 2026-11-28), and the web tests keep one core busy (jsdom,
 * one file at a time). Web tests, build and browser suite took 1,108 s one after the other here,
 * and 862 s side by side. In the CI run of d6d43f7 the web tests ended at 627 s and the browser
 * suite at 1,064 s, so the cluster suite (100 s alone) takes the web tests' lane after them
 * (README, "The web tests and the browser suite share the machine's two cores").
 */
const suites = [
  { name: 'typecheck', together: 'checks', cmd: 'npm', args: ['run', 'typecheck'] },
  { name: 'lint', together: 'checks', cmd: 'npm', args: ['run', 'lint'] },
  {
    name: 'format',
    together: 'checks',
    cmd: 'npx',
    args: ['prettier', '--check', '.', '--log-level', 'warn'],
  },
  {
    name: 'server',
    label: 'server suite on SQLite',
    ...vitest('server', 'server-own-modules'),
    env: { TEST_DB: 'sqlite' },
    precheck: () => (ci ? corpusProblem() : null),
  },
  {
    name: 'server-pg',
    label: 'server suite on PostgreSQL',
    ...vitest('server', 'server-own-modules'),
    env: { TEST_DB: 'postgres' },
    skip: () => (process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set'),
    precheck: () => (ci ? corpusProblem() : null),
  },
  {
    name: 'web',
    together: 'web+browser',
    lane: 'web',
    label: 'web component tests',
    ...vitest('web', 'web-own-modules'),
  },
  {
    name: 'build',
    together: 'web+browser',
    lane: 'browser',
    label: 'production build',
    cmd: 'npm',
    args: ['run', 'build'],
  },
  {
    name: 'e2e',
    together: 'web+browser',
    lane: 'browser',
    live: true,
    label: 'browser suite (Playwright, Chromium)',
    cmd: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
    report: 'playwright',
    skip: () =>
      existsSync(chromium) ? null : `no Chromium at ${chromium} (apt-get install -y chromium)`,
  },
  {
    // Several instances behind nginx on one PostgreSQL database and one bucket (issue 17):
    // sessions, limits, media links, the sweeper's leader, seeding, and the fault tests.
    // `npm run test:cluster` runs the long forms (CLUSTER_FULL=1). It runs after the web tests,
    // beside the browser suite's last minutes, when the web tests have left a core to it.
    name: 'cluster',
    together: 'web+browser',
    lane: 'web',
    label: 'cluster suite (nginx, 2 instances, PostgreSQL, S3)',
    ...vitest('cluster'),
    skip: () => clusterProblem(),
  },
  {
    // The browser spec walk through nginx against two instances: in `npm run test:cluster` and
    // with `--only=cluster-e2e`, not in the whole run (the CI run's 40-minute budget). The walk
    // itself runs in `e2e` against one instance; the cluster step above is its reduced form here.
    name: 'cluster-e2e',
    label: 'browser walk through the cluster',
    wholeRun: false,
    cmd: 'npx',
    args: ['playwright', 'test', '-c', 'e2e/playwright.cluster.config.ts'],
    report: 'playwright',
    skip: () =>
      clusterProblem() ??
      (existsSync(chromium) ? null : `no Chromium at ${chromium} (apt-get install -y chromium)`),
  },
  {
    // The CI-sized benchmark (issue 11): prints its table; fails only on a FAIL row, a figure
    // more than 3× worse than its target (or than a hand-written server where that cannot reach
    // the target here; an N+1 query, say), never on an ordinary miss.
    name: 'bench',
    label: 'benchmark smoke (npm run bench -- --quick)',
    cmd: 'npm',
    args: ['run', 'bench', '--', '--quick'],
  },
];

const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

/** Lines of an error, each on a line of its own under the summary's entry. */
const indented = (lines) => lines.map((line) => `\n          ${line}`).join('');

/**
 * Skipped and failed tests of a Vitest run: `{ allowed, unexpected, failed }`, each skip with a
 * reason and each failure with the first lines of its error.
 */
function vitestSkips(suite, file) {
  const report = readJson(file);
  if (!report) return null;
  const allowed = [];
  const unexpected = [];
  const corpusMissing = !process.env.PHOTO_CORPUS_DIR;
  for (const skip of report.skipped) {
    const rule = (allowedSkips[suite.name] ?? []).find((a) => skip.name.startsWith(a.test));
    const reason =
      rule?.reason ??
      skip.note ??
      (skip.todo
        ? 'marked todo'
        : corpusMissing && /\.corpus\.test\./.test(skip.file)
          ? 'PHOTO_CORPUS_DIR is not set'
          : 'skipped by the test itself (no reason given)');
    (rule ? allowed : unexpected).push({ name: `${skip.file} > ${skip.name}`, reason });
  }
  const failed = (report.failed ?? []).map((f) => ({
    name: `${f.file} > ${f.name}`,
    error: indented(f.error.split('\n')),
  }));
  return { allowed, unexpected, failed };
}

/**
 * The first failed attempt's error, a few lines of it without colours: the summary is often all
 * that is left of a CI run, and a flaky test is fixed from its first failure.
 */
function firstFailure(results = []) {
  const error = results.find((r) => r.status !== 'passed' && r.error?.message)?.error;
  if (!error) return '';
  const where = error.location
    ? [`at ${path.relative(process.cwd(), error.location.file)}:${error.location.line}`]
    : [];
  const lines = stripVTControlCharacters(error.message)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(0, 7)
    .concat(where);
  return `: ${indented(lines)}`;
}

/** Failed, flaky and skipped tests of a Playwright run, from its JSON report. */
function playwrightOutcomes(file) {
  const report = readJson(file);
  if (!report) return null;
  const failed = [];
  const flaky = [];
  const skipped = [];
  const walk = (suite, titles) => {
    const here = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const name = `[${t.projectName}] ${[...here, spec.title].join(' › ')}`;
        if (t.status === 'unexpected') {
          failed.push({ name, reason: `failed${firstFailure(t.results)}` });
        } else if (t.status === 'flaky') {
          flaky.push({ name, reason: `failed, then passed on retry${firstFailure(t.results)}` });
        } else if (t.status === 'skipped') {
          const note = t.annotations?.find((a) => a.type === 'skip')?.description;
          skipped.push({ name, reason: note ?? 'skipped (or not run after an earlier failure)' });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return { failed, flaky, skipped };
}

/** Runs a command; with `buffered`, its output is held and printed when it ends. */
function run(cmd, args, { env, buffered }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env,
      cwd: root,
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    // A command that cannot start emits `error` and may never emit `close`.
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve({ status: null, output: Buffer.concat(output) });
    });
    child.on('close', (status) => resolve({ status, output: Buffer.concat(output) }));
  });
}

/** Whether `suite` is part of this run (`--only`, the build that the browser suites need). */
function selected(suite) {
  const needsBuild = only && (only.has('e2e') || only.has('cluster-e2e'));
  return !only || only.has(suite.name) || (suite.name === 'build' && needsBuild);
}

/** Runs one suite and returns its result line for the summary. */
async function runSuite(suite, { buffered }) {
  const label = suite.label ?? suite.name;
  if (!only && suite.wholeRun === false) {
    console.log(`\n=== ${label}: not in the whole run (npm run test:cluster runs it)`);
    return { label, status: 'left out', reason: 'npm run test:cluster runs it' };
  }
  const reason = suite.skip?.();
  if (reason) {
    if (ci) {
      console.log(`\n=== ${label}: FAILED (skipped in CI: ${reason})`);
      return { label, status: 'failed', reason: `skipped in CI: ${reason}` };
    }
    console.log(`\n=== ${label}: SKIPPED (${reason})`);
    return { label, status: 'skipped', reason };
  }
  const problem = suite.precheck?.();
  if (problem) {
    console.log(`\n=== ${label}: FAILED before running: ${problem}`);
    return { label, status: 'failed', reason: problem };
  }

  console.log(`\n=== ${label}: ${buffered ? 'running (output when it ends)' : 'running'}`);
  const reportFile = path.join(scratch, `${suite.name}.json`);
  const env = { ...process.env, ...(suite.env ?? {}) };
  if (suite.report === 'vitest') env.VITEST_SKIPS_FILE = reportFile;
  if (suite.report === 'playwright') env.E2E_JSON_REPORT = reportFile;
  const started = Date.now();
  const { status, output } = await run(suite.cmd, suite.args, { env, buffered });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (buffered) {
    console.log(`\n=== ${label}: output`);
    process.stdout.write(output);
  }
  const result = { label, status: status === 0 ? 'passed' : 'failed', seconds, notes: [] };
  const fail = (note) => {
    result.status = 'failed';
    result.notes.push(note);
  };

  if (suite.report === 'vitest') {
    const skips = vitestSkips(suite, reportFile);
    if (!skips) {
      if (status === 0) fail('no skip report was written, so skips cannot be checked');
    } else {
      for (const f of skips.failed) fail(`FAILED: ${f.name}:${f.error}`);
      for (const s of skips.allowed) result.notes.push(`intended skip: ${s.name} (${s.reason})`);
      for (const s of skips.unexpected) {
        if (ci) fail(`SKIPPED in CI: ${s.name} (${s.reason})`);
        else result.notes.push(`skipped: ${s.name} (${s.reason})`);
      }
    }
  }
  if (suite.report === 'playwright') {
    const outcomes = playwrightOutcomes(reportFile);
    if (!outcomes) {
      if (status === 0) fail('no Playwright JSON report was written');
    } else {
      // Playwright already fails a CI run on a flaky test (failOnFlakyTests); this names them.
      for (const t of outcomes.failed) fail(`FAILED: ${t.name} (${t.reason})`);
      for (const t of outcomes.flaky) fail(`FLAKY: ${t.name} (${t.reason})`);
      for (const t of outcomes.skipped) {
        if (ci) fail(`SKIPPED in CI: ${t.name} (${t.reason})`);
        else result.notes.push(`skipped: ${t.name} (${t.reason})`);
      }
    }
  }
  console.log(`=== ${label}: ${result.status.toUpperCase()} in ${seconds}s`);
  return result;
}

// The selected suites in order, consecutive ones with the same `together` in one batch.
const batches = [];
for (const suite of suites.filter(selected)) {
  const last = batches.at(-1);
  if (suite.together && last?.[0].together === suite.together) last.push(suite);
  else batches.push([suite]);
}
/** A batch's lanes: suites with the same `lane` (or each alone) in order, in one lane. */
function lanes(batch) {
  const byLane = new Map();
  for (const suite of batch) {
    const key = suite.lane ?? suite.name;
    byLane.set(key, [...(byLane.get(key) ?? []), suite]);
  }
  return [...byLane.values()];
}
const results = [];
for (const batch of batches) {
  const parallel = lanes(batch);
  const ended = new Map();
  await Promise.all(
    parallel.map(async (lane) => {
      for (const suite of lane)
        ended.set(suite, await runSuite(suite, { buffered: parallel.length > 1 && !suite.live }));
    }),
  );
  // The summary lists the suites in the order above, not in the order they ended.
  results.push(...batch.map((suite) => ended.get(suite)));
}

console.log(`\n=== Summary${ci ? ' (CI: skipped and flaky tests fail the run)' : ''}`);
for (const r of results) {
  const detail =
    r.seconds === undefined ? `${r.status}: ${r.reason}` : `${r.status} (${r.seconds}s)`;
  console.log(`  ${r.label.padEnd(40)} ${detail}`);
  for (const note of r.notes ?? []) console.log(`      - ${note}`);
}
const passed = results.filter((r) => r.status === 'passed').length;
const failed = results.filter((r) => r.status === 'failed').length;
const skipped = results.filter((r) => r.status === 'skipped').length;
const skippedTests = results.flatMap((r) => r.notes ?? []).filter((n) => /^skipped/.test(n));
if (!ci && (skipped > 0 || skippedTests.length > 0)) {
  console.log(
    `NOTE: skipped ${skipped} suite(s) and ${skippedTests.length} test(s) or file(s) (listed above); CI fails on these.`,
  );
}
console.log(`suites: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
