import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import web, { webTestsWithOwnModules } from './apps/web/vite.config.ts';

export default defineConfig({
  test: {
    // Vitest runs as many files at once as there are cores less one: a single file at a time on
    // this project's 2-core machines, where the server suites wait on child processes, sockets and
    // timers much of the time and left a core idle (load ≈ 1.5). Two at a time there (server on
    // SQLite 515 -> 319 s, on PostgreSQL 544 -> 431 s in CI); the cluster project stays at one
    // (fileParallelism below), and the web project at one (apps/web/vite.config.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // Several instances behind nginx (issue 17): each file starts its own cluster of
        // processes, so files run one at a time.
        test: {
          name: 'cluster',
          include: ['cluster/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      'apps/web/vite.config.{ts,mts}',
      // The web files that load the app their own way, each in a fresh module registry.
      {
        ...web,
        root: fileURLToPath(new URL('./apps/web', import.meta.url)),
        test: {
          ...web.test,
          name: 'web-own-modules',
          include: webTestsWithOwnModules,
          exclude: [],
          isolate: true,
        },
      },
    ],
  },
});
