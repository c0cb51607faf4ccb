// The browser suite through nginx against two instances (issue 17): the spec walk, uploads
// (streamed through nginx, then edited and deleted) and, in the long form, sign-in and sessions,
// with the same browser settings as e2e/playwright.config.ts, against
// e2e/cluster-server.ts (two production instances behind deploy/nginx.conf on one PostgreSQL
// database and one S3 bucket). Needs nginx and PostgreSQL (TEST_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432). Artifacts (screenshots, report, traces, the instances'
// logs and nginx's access log) go to e2e/.artifacts/cluster/.
//
//   npm run build && npx playwright test -c e2e/playwright.cluster.config.ts
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { portsFromEnv, sharedConfig } from './config-common.js';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const artifactsDir = path.join(e2eDir, '.artifacts', 'cluster');

// nginx's port (E2E_PORT, as in the main config) and the two instances' (E2E_INSTANCE_PORTS):
// chosen here so that the workers can ask an instance directly.
const [port] = portsFromEnv('E2E_PORT');
const instancePorts = portsFromEnv('E2E_INSTANCE_PORTS', 2);
// Through nginx the app never hands out the sample password (X-Forwarded-For marks the request
// as not from this machine); the fixtures ask instance a for it, and type it where the login page
// would prefill it.
process.env.E2E_HINTS_URL = `http://127.0.0.1:${instancePorts[0]}/api/auth/hints`;
process.env.E2E_CLUSTER_STATE = path.join(artifactsDir, 'cluster.json');

export default defineConfig({
  ...sharedConfig({ artifactsDir, baseURL: `http://127.0.0.1:${port}` }),
  // `npm test` keeps to the walk and the uploads (the CI run's time budget); `npm run
  // test:cluster` (CLUSTER_FULL=1) adds sign-in and sessions.
  testMatch: process.env.CLUSTER_FULL
    ? ['walk.spec.ts', 'uploads.spec.ts', 'auth.spec.ts']
    : ['walk.spec.ts', 'uploads.spec.ts'],
  // Left to the main suite, as they prove nothing more here: the walk's failing-data screens
  // (every data call is answered by the browser itself, none reaches nginx) and the uploader's
  // phone layout.
  grepInvert: /every screen shows a loading state|upload screens never scroll sideways/,
  // Fails the run unless nginx's access log shows both instances served a fair share.
  globalTeardown: './cluster-teardown.ts',
  webServer: {
    command: 'node --import tsx e2e/cluster-server.ts',
    cwd: '..',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // SIGTERM: the script keeps the logs, stops the processes and drops the database.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 60_000 },
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
