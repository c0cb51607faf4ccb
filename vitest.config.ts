import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import web, { webTestsWithOwnModules } from './apps/web/vite.config.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.join(root, 'apps', 'server');

/** What marks a file as reaching the suite's database: its helpers, or the variables behind them. */
const databaseMarks = /\b(TEST_DB|TEST_DATABASE_URL|testDialect|createTestContext)\b/;
const relativeImport = /(?:\bfrom|\bimport\s*\(?|vi\.mock\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The server's test files (absolute paths), listed once for the checks below. */
const serverTestFiles = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts') && !file.includes('node_modules'))
  .map((file) => path.join(serverDir, file));

/**
 * The server's test files whose outcome cannot depend on TEST_DB: neither they nor anything they
 * import (following relative imports) names the suite's database choice.
 */
function dialectIndependentServerTests(): string[] {
  const scanned = new Map<string, { marked: boolean; imports: string[] }>();
  const scan = (file: string) => {
    let entry = scanned.get(file);
    if (!entry) {
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(relativeImport)].flatMap(([, spec]) => {
        const base = path.resolve(path.dirname(file), spec);
        const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
        // Only TypeScript files: a bare folder name (`'../db'`) exists too, but is not read.
        return candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? [];
      });
      entry = { marked: databaseMarks.test(text), imports };
      scanned.set(file, entry);
    }
    return entry;
  };
  const reachesDatabase = (testFile: string) => {
    const seen = new Set([testFile]);
    for (const file of seen) {
      const { marked, imports } = scan(file);
      if (marked) return true;
      for (const next of imports) seen.add(next);
    }
    return false;
  };
  return serverTestFiles.filter((file) => !reachesDatabase(file));
}

/** What marks a test file as mocking a module (vi.mock is hoisted; vi.doMock is not). */
const moduleMocks = /\bvi\.(mock|doMock)\(/;

/*
 * The server test files that mock a module, relative to the root: in a shared module registry the
 * mock would not reach a module another file has already loaded, or would leak into the files
 * after it. They run isolated, in the `server-own-modules` project; the rest share one registry
 * per worker. Found by their text, so a new file that mocks is isolated without a list to keep.
 */
const serverTestsWithOwnModules = serverTestFiles
  .filter((file) => moduleMocks.test(readFileSync(file, 'utf8')))
  .map((file) => path.relative(root, file));

/*
 * The server's test settings, for both of its projects. The server suite runs twice in
 * `npm test`, on SQLite and on PostgreSQL. The PostgreSQL run leaves out the files that reach no
 * database (the image pipeline, storage, the PDF renderer, the layering check: 256 -> 218 s
 * here), since the SQLite run has run them on the same code.
 */
const serverTest = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  exclude: [
    ...configDefaults.exclude,
    ...(process.env.TEST_DB === 'postgres' ? dialectIndependentServerTests() : []),
  ],
} as const;

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
          ...serverTest,
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          exclude: [...serverTest.exclude, ...serverTestsWithOwnModules],
          /*
           * The files share one module registry per worker: each file imported the app again,
           * about 1.4 s per file (import 134 s of the SQLite run's 324 s here; 211 s shared, and
           * PostgreSQL 240 s). Files build their own app, database and storage
           * (createTestContext), and the server's module state is memoization only (HMAC keys,
           * fonts, the gazetteer); a file that mocks a module runs isolated
           * (serverTestsWithOwnModules).
           */
          isolate: false,
        },
      },
      {
        test: {
          ...serverTest,
          name: 'server-own-modules',
          include: serverTestsWithOwnModules,
          isolate: true,
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
