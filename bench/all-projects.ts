/**
 * All projects at scale, in the browser (issue 11): how long the All projects screen takes to
 * show its first rows in Chromium when the workspace holds 100,000 projects.
 *
 *   npm run build && npx tsx bench/all-projects.ts [--projects=100000] [--runs=5]
 *
 * Seeds a fresh temporary SQLite data dir (2 members, `--projects` projects by batched inserts,
 * as bench/projects.ts), starts the app on it as its own process (`NODE_ENV=production`, the
 * production build of apps/web), signs in through the API and opens Debian's Chromium
 * (CHROMIUM_PATH, default /usr/bin/chromium) with Playwright, signed in. Two figures, each the
 * median of `--runs` page loads:
 *
 * - **open**: a fresh page goes to /projects/all (the scripts come from the browser's cache after
 *   the first load); from navigation start to the first row of the table in the DOM;
 * - **from Home**: Home is open and settled, the user clicks All projects in the side menu; from
 *   the click to the first row.
 *
 * Each run checks that the table shows real rows (the newest project first) and that the header
 * counts every project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { createDatabase, migrateToLatest } from '../apps/server/src/db/database.js';
import { buildUser, DEFAULT_PASSWORD } from '../apps/server/test/factories.js';
import { chromiumFlags, chromiumPath } from '../e2e/chromium.js';
import { seedConfig, startAppProcess, type Server } from './http.js';
import { isMain, median } from './measure.js';
import { seedProjects } from './projects.js';
import { hasBuild } from './web-bundle.js';

export interface AllProjectsOptions {
  projects: number;
  runs: number;
}

export const fullAllProjects: AllProjectsOptions = { projects: 100_000, runs: 5 };
export const quickAllProjects: AllProjectsOptions = { projects: 100_000, runs: 3 };

export interface AllProjectsResult {
  projects: number;
  /** Navigation start to the first row, ms, per run. */
  open: number[];
  /** Click on All projects (Home open) to the first row, ms, per run. */
  fromHome: number[];
  notes: string[];
}

async function seed(dataDir: string, projects: number) {
  const db = createDatabase(seedConfig(dataDir).database);
  try {
    await migrateToLatest(db);
    const viewer = await buildUser({ db }, { firstname: 'Bench', lastname: 'Viewer' });
    const colleague = await buildUser({ db });
    await seedProjects(db, projects, [viewer.id, colleague.id]);
    return viewer;
  } finally {
    await db.destroy();
  }
}

/** ms from navigation start until the table has a first row (polled every frame). */
async function firstRowAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => (document.querySelector('main tbody tr') ? performance.now() : false),
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** The first row is the newest project, and the header counts all of them. */
async function checkTable(page: Page, projects: number): Promise<void> {
  // seedProjects names the newest "Office tower 1".
  const first = (await page.locator('main tbody tr').first().innerText()).replace(/\s+/g, ' ');
  if (!/\bOffice tower 1\b/.test(first)) throw new Error(`unexpected first row: ${first}`);
  const count = `${new Intl.NumberFormat('en-US').format(projects)} projects`;
  await page.getByText(count, { exact: true }).waitFor({ timeout: 60_000 });
}

export async function measureAllProjects(
  options: AllProjectsOptions,
  progress: (line: string) => void = () => {},
): Promise<AllProjectsResult> {
  if (!hasBuild()) throw new Error('no production build of the web app: run npm run build');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-all-projects-'));
  let server: Server | null = null;
  let browser: Browser | null = null;
  try {
    progress(`seeding ${options.projects.toLocaleString('en-US')} projects…`);
    const viewer = await seed(path.join(dir, 'data'), options.projects);
    server = await startAppProcess([], path.join(dir, 'data'), path.join(dir, 'app.log'));
    const origin = `http://127.0.0.1:${server.port}`;
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: { email: viewer.email, password: DEFAULT_PASSWORD } }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    // The answer is the session user plus the token; the web app keeps both in localStorage.
    const { token, ...user } = (await login.json()) as { token: string };

    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumFlags,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(
      ([value, userJson]) => {
        window.localStorage.setItem('sitelog.token', value);
        window.localStorage.setItem('sitelog.user', userJson);
      },
      [token, JSON.stringify(user)] as const,
    );

    // Once, so the scripts and fonts are in the browser's cache as they are for a returning user.
    progress('warming up…');
    const warm = await context.newPage();
    await warm.goto(`${origin}/projects/all`);
    await firstRowAt(warm);
    await checkTable(warm, options.projects);
    await warm.close();

    const open: number[] = [];
    const fromHome: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      const page = await context.newPage();
      await page.goto(`${origin}/projects/all`);
      open.push(await firstRowAt(page));
      await checkTable(page, options.projects);
      await page.close();

      const home = await context.newPage();
      await home.goto(`${origin}/`);
      await home.waitForLoadState('networkidle');
      const link = home.getByRole('link', { name: 'All projects' }).first();
      await link.waitFor();
      const clickedAt = (await home.evaluate(() => performance.now())) as number;
      await link.click();
      fromHome.push((await firstRowAt(home)) - clickedAt);
      await checkTable(home, options.projects);
      await home.close();
      progress(
        `run ${run + 1}/${options.runs}: open ${open.at(-1)?.toFixed(0)} ms, from Home ${fromHome.at(-1)?.toFixed(0)} ms`,
      );
    }
    return {
      projects: options.projects,
      open,
      fromHome,
      notes: [
        `${options.projects.toLocaleString('en-US')} projects, SQLite, app not pinned, Chromium ${browser.version()} at 1280×800; ${options.runs} runs after one warm-up load`,
      ],
    };
  } finally {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const value = (name: string) =>
    process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const result = await measureAllProjects(
    {
      projects: Number(value('projects') ?? fullAllProjects.projects),
      runs: Number(value('runs') ?? fullAllProjects.runs),
    },
    (line) => console.error(line),
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log(
    `open /projects/all → first row:      median ${median(result.open).toFixed(0)} ms (${result.open.map((v) => v.toFixed(0)).join(', ')})`,
  );
  console.log(
    `Home → click All projects → first row: median ${median(result.fromHome).toFixed(0)} ms (${result.fromHome.map((v) => v.toFixed(0)).join(', ')})`,
  );
}
