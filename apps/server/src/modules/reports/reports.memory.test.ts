// A 200-photo report is made without holding its images in memory (issue 16): in a fresh child
// process (test/report-memory.ts), resident memory is sampled every 5 ms while the PDF is made.
// The bound: RSS may grow at most REPORT_RSS_GROWTH_MAX_MB over the process's size before the
// report started, while the display images the PDF embeds total over 60 MB (held at once, they
// alone would pass it: measured +73 MB against +19 MB streamed), and the peak may be at most
// 1.2× that of a 20-photo report made just before. A one-photo report made first loads pdfkit
// and the fonts, so the measured reports start from a warm process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, buildReport, buildUpload } from '../../../test/factories.js';
import { createTestContext, targetEnv, type TestContext } from '../../../test/helpers.js';
import { photoJpeg } from '../../../test/images.js';

/** The stated bound (README, Design notes): RSS growth while a 200-photo PDF is made. */
const REPORT_RSS_GROWTH_MAX_MB = 48;
const PHOTOS = 200;
const MB = 1024 * 1024;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const childScript = path.join(repoRoot, 'apps/server/test/report-memory.ts');

let ctx: TestContext;
let uploadIds: number[];
let projectId: number;
let authorId: number;
let displayBytes = 0;

beforeAll(async () => {
  // The app's own queue stays out of it: the child makes the PDFs.
  ctx = await createTestContext({ REPORT_CONCURRENCY: '0' });
  const project = await buildProject(ctx);
  projectId = project.id;
  authorId = project.creatorId;
  // Eight real photographs' worth of display images (~330 KB JPEGs of 1400×1050 with noise),
  // in turn. The photos are uploaded small (fast), then each one's stored display image is
  // replaced by a big one, as a phone's photo would have: the report embeds display images.
  const big: Buffer[] = [];
  for (let i = 0; i < 8; i++) big.push(await photoJpeg(1400 + i * 8, 1050, 82));
  uploadIds = [];
  for (let i = 0; i < PHOTOS; i++) {
    const id = await buildUpload(ctx, { projectId, creatorId: authorId, name: `Photo ${i + 1}` });
    const jpeg = big[i % big.length]!;
    const { formatted_key } = await ctx.db
      .selectFrom('uploads')
      .select('formatted_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await ctx.storage.put(formatted_key, jpeg, 'image/jpeg');
    await ctx.db
      .updateTable('uploads')
      .set({ formatted_width: 1400 + (i % big.length) * 8, formatted_height: 1050 })
      .where('id', '=', id)
      .execute();
    displayBytes += jpeg.length;
    uploadIds.push(id);
  }
}, 120_000);
afterAll(async () => ctx?.close());

interface Measured {
  id: number;
  outcome: string;
  baselineRss: number;
  peakRss: number;
  ms: number;
}

/** Makes the reports in a child process on the test's database and storage; its measurements. */
function measure(ids: number[]): Promise<Measured[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, ...ids.map(String)], {
      cwd: repoRoot,
      env: { ...process.env, ...targetEnv({ dataDir: ctx.dataDir, ...databaseUrl() }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the child exited with ${code}:\n${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Measured[]);
    });
  });
}

function databaseUrl(): { databaseUrl?: string } {
  const { database } = ctx.config;
  return database.kind === 'postgres' ? { databaseUrl: database.url } : {};
}

describe('a 200-photo report', () => {
  it(`is made with RSS growing less than ${REPORT_RSS_GROWTH_MAX_MB} MB, about as much as 20 photos`, async () => {
    expect(displayBytes).toBeGreaterThan(60 * MB);
    const warmup = await buildReport(ctx, {
      projectId,
      authorId,
      uploadIds: uploadIds.slice(0, 1),
    });
    const small = await buildReport(ctx, {
      projectId,
      authorId,
      uploadIds: uploadIds.slice(0, 20),
      layout: 1,
    });
    const large = await buildReport(ctx, { projectId, authorId, uploadIds, layout: 1 });
    const [, twenty, twoHundred] = await measure([warmup, small, large]);
    const growth = (m: Measured) => (m.peakRss - m.baselineRss) / MB;
    console.log(
      `report RSS: 20 photos +${growth(twenty!).toFixed(1)} MB (peak ${(twenty!.peakRss / MB).toFixed(0)} MB, ${twenty!.ms} ms); ` +
        `200 photos +${growth(twoHundred!).toFixed(1)} MB (peak ${(twoHundred!.peakRss / MB).toFixed(0)} MB, ${twoHundred!.ms} ms); ` +
        `display images ${(displayBytes / MB).toFixed(0)} MB`,
    );
    const measured = JSON.stringify([twenty, twoHundred]);
    expect(twenty!.outcome, measured).toBe('ready');
    expect(twoHundred!.outcome, measured).toBe('ready');
    const row = await ctx.db
      .selectFrom('reports')
      .select(['pdf_bytes', 'pdf_pages'])
      .where('id', '=', large)
      .executeTakeFirstOrThrow();
    // Every display image is in the PDF, one page each.
    expect(row.pdf_bytes).toBeGreaterThan(displayBytes);
    expect(row.pdf_pages).toBeGreaterThanOrEqual(1 + PHOTOS);
    expect(growth(twoHundred!), measured).toBeLessThan(REPORT_RSS_GROWTH_MAX_MB);
    // Flat: ten times the photos, about the same memory.
    expect(twoHundred!.peakRss, measured).toBeLessThan(twenty!.peakRss * 1.2);
  }, 60_000);
});
