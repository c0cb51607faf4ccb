import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
    ],
  },
});
