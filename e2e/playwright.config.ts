import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { portsFromEnv, sharedConfig } from './config-common.js';

// The browser suite against one server (e2e/server.mjs). E2E_PORT overrides the free port.
const [port] = portsFromEnv('E2E_PORT');
const artifactsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '.artifacts');

export default defineConfig({
  ...sharedConfig({ artifactsDir, baseURL: `http://127.0.0.1:${port}` }),
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
