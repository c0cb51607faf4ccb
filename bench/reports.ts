/**
 * Photo reports (issue 16): what the report PDF costs per photo and whether its memory stays flat
 * as the report grows.
 *
 *   npx tsx bench/reports.ts [--quick]
 *
 * - The photos: four distinct photo-like JPEGs of 1600 × 1200 (sharp, gradients and grain,
 *   quality 82, ≈ 425 KiB each: the size of a display image), written to a temp dir once. Each
 *   photo of a report is read from disk afresh (`readFile`, as the reports service reads the
 *   display image from storage), cycling through the four.
 * - The report: `renderReportPdf` (apps/server/src/modules/reports/report-pdf.ts), layout 2, a
 *   cover with a short intro, each photo with its caption, author, times, GPS and SHA-256, the
 *   photo index, written to a file.
 * - The baseline: the same JPEGs, read the same way, into a bare pdfkit PDF: one image per A4
 *   page, fitted, no text, no layout, written to a file, with the report's backpressure (it waits
 *   while more than PENDING_OUTPUT_LIMIT is pending, as the report does; without it, it would
 *   hold up to the whole PDF in memory and let the disk catch up at the end), and the report's
 *   document option `compress: false` (streams not deflated; either way pdfkit never deflates a
 *   JPEG, only the page contents).
 * - Each case runs in a child process of its own (`node --import tsx bench/reports.ts
 *   --child=…`), so its peak RSS (`VmHWM`, see `peakRssKiB`) is that case's alone. The
 *   child first makes a small one (4 photos, not timed), as a server that has made a report
 *   since it started: the first one also pays for loading code and time-zone data. The time is
 *   from the first photo asked for to the file finished.
 * - Rounds: each round runs every size, report and baseline back to back (which goes first
 *   alternates by round). Five rounds in the full form: one round's ratio moves by ±0.3 on this
 *   shared machine (a child's CPU time includes V8 compiling the code it runs on background
 *   threads, and a garbage collection falls into one size's run or the next), the median of
 *   five by less.
 * - Time per photo: the slope of the time over the photo count (least squares over the sizes of
 *   a round), report against baseline, the median of the per-round ratios: what each photo adds.
 *   The target applies to CPU time (user + system, `process.cpuUsage`): both cases are one
 *   thread of JavaScript that waits for nothing but the disk's page cache, so on a quiet machine
 *   wall-clock time is about the same; on this shared 2-core machine a child's wall-clock time
 *   is mostly other processes' (wall minus CPU of one 200-photo report varied 0–400 ms between
 *   identical runs at load average 8). The wall-clock slope is the row below it, without a
 *   target. What a report costs before its first photo (the intercept: its fonts parsed and
 *   subset, the cover, the index's header) is its own row, and the plain time / photos of each
 *   size is shown too (without a target: at 20 photos it is mostly that fixed cost, ≈ 60–100 ms,
 *   against a baseline that only copies ≈ 1 ms of bytes per photo).
 * - Memory: the median over the rounds of the report's peak RSS at the largest size over the
 *   smallest (the issue's "flat from 20 to 200 photos"); the baseline's own growth beside it.
 *
 * `measureReports` is also called by bench/run.ts (`npm run bench`), with two sizes in --quick.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import {
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import {
  PENDING_OUTPUT_LIMIT,
  renderReportPdf,
  type ReportPdfPhoto,
} from '../apps/server/src/modules/reports/report-pdf.js';
import type PDFKitModule from 'pdfkit';
import { isMain, median } from './measure.js';
import { atMost, formatTable, measured, millis, times, type Row } from './table.js';

export interface ReportsOptions {
  /** Photos per report; the RSS growth compares the last size with the first. */
  sizes: number[];
  rounds: number;
}

export const fullReports: ReportsOptions = { sizes: [20, 100, 200], rounds: 5 };
/** `npm test`'s form: the two ends of the range, twice (≈ 10 s). */
export const quickReports: ReportsOptions = { sizes: [20, 200], rounds: 2 };

const TIME_TARGET = 1.3;
const RSS_TARGET = 1.2;
const DISTINCT_PHOTOS = 4;
const WIDTH = 1600;
const HEIGHT = 1200;
const QUALITY = 82;
const LAYOUT = 2;
/** Photos of the untimed report each child makes first. */
const WARM_UP_PHOTOS = 4;

/** pdfkit is the server's dependency (apps/server/node_modules), the same copy the report uses. */
const PDFDocument = createRequire(path.resolve(import.meta.dirname, '../apps/server/package.json'))(
  'pdfkit',
) as typeof PDFKitModule;

type Kind = 'report' | 'baseline';

interface Manifest {
  files: { file: string; sha256: string; width: number; height: number }[];
}

interface CaseResult {
  ms: number;
  /** CPU time of the run (user + system). */
  cpuMs: number;
  maxRssKiB: number;
  bytes: number;
  pages: number;
}

export interface ReportsResult {
  rows: Row[];
  notes: string[];
}

// ---- one case, in a child process ------------------------------------------------------------

/** The photos of a report of `count`, each read from disk as it is asked for. */
async function* photosFrom(manifest: Manifest, count: number): AsyncGenerator<ReportPdfPhoto> {
  for (let i = 0; i < count; i++) {
    const source = manifest.files[i % manifest.files.length];
    if (!source) throw new Error('no photos');
    const jpeg = await readFile(source.file);
    yield {
      position: i + 1,
      name: `IMG_${String(4000 + i).padStart(4, '0')}.jpg`,
      caption: `Rebar cage at grid C${(i % 9) + 1}, level ${(i % 4) + 1}: checked before the pour.`,
      authorName: 'Anna Kowalska',
      capturedAt:
        i % 3 === 0
          ? '2026-05-01T07:08:09'
          : `2026-05-01T08:${String(i % 60).padStart(2, '0')}:30.000Z`,
      uploadedAt: '2026-05-01T12:00:00.000Z',
      latitude: 48.137431 + i / 10_000,
      longitude: 11.575491,
      placeName: i % 5 === 0 ? null : 'Munich',
      camera: 'Canon EOS 40D',
      sha256: source.sha256,
      jpeg,
      width: source.width,
      height: source.height,
    };
  }
}

async function runReport(manifest: Manifest, count: number, file: string): Promise<number> {
  const { pages } = await renderReportPdf({
    cover: {
      reportId: 1,
      title: 'Level 3 slab pour',
      typeLabel: 'Daily site report',
      projectName: 'Riverside Tower',
      projectLocation: 'Munich, Germany',
      authorName: 'Anna Kowalska',
      from: '2026-05-01',
      to: '2026-05-03',
      photoCount: count,
      teamName: 'Acme Construction GmbH',
      intro: 'The pour of the level 3 slab, from the formwork check to the finished surface.',
      createdAt: '2026-05-03T15:00:00.000Z',
      timeZone: 'Europe/Berlin',
    },
    layout: LAYOUT,
    photos: photosFrom(manifest, count),
    out: createWriteStream(file),
  });
  return pages;
}

/** The baseline: each JPEG on a page of its own, fitted, nothing else. */
async function runBaseline(manifest: Manifest, count: number, file: string): Promise<number> {
  // The report's `compress: false`: a bare PDF's only deflated streams would be its page
  // contents (≈ 40 bytes each).
  const doc = new PDFDocument({ autoFirstPage: false, size: 'A4', margin: 0, compress: false });
  const out = createWriteStream(file);
  const written = pipeline(doc, out);
  let pages = 0;
  for await (const photo of photosFrom(manifest, count)) {
    doc.addPage();
    doc.image(photo.jpeg, 0, 0, { fit: [doc.page.width, doc.page.height] });
    pages++;
    // The same backpressure as the report's: wait while more than its limit is pending.
    await new Promise((resolve) => setImmediate(resolve));
    while (doc.readableLength > PENDING_OUTPUT_LIMIT) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  doc.end();
  await written;
  return pages;
}

async function child(kind: Kind, count: number, dir: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'photos.json'), 'utf8')) as Manifest;
  const file = path.join(dir, `${kind}-${count}-${process.pid}.pdf`);
  const run = kind === 'report' ? runReport : runBaseline;
  await run(manifest, WARM_UP_PHOTOS, file);
  const start = performance.now();
  const cpu = process.cpuUsage();
  const pages = await run(manifest, count, file);
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  const result: CaseResult = {
    ms,
    cpuMs: (user + system) / 1000,
    maxRssKiB: peakRssKiB(),
    bytes: statSync(file).size,
    pages,
  };
  rmSync(file, { force: true });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * This process's peak RSS in KiB. On Linux the kernel's `VmHWM`, which starts afresh with the
 * process image: `getrusage`'s `maxRSS` keeps the high-water mark of the process that forked the
 * child (under `npm run bench` the bench runner's few hundred MiB), so every case read the same.
 */
function peakRssKiB(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS;
}

function runChild(kind: Kind, count: number, dir: string): Promise<CaseResult> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', script, `--child=${kind}`, `--photos=${count}`, `--dir=${dir}`],
      { cwd: path.resolve(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{'))
        return reject(new Error(`${kind} of ${count} photos failed (exit ${code}): ${err.trim()}`));
      resolve(JSON.parse(last) as CaseResult);
    });
  });
}

// ---- the comparison ----------------------------------------------------------------------------

const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
const perPhoto = (ms: number) => `${ms.toFixed(1)} ms`;

export async function measureReports(
  options: ReportsOptions,
  progress: (line: string) => void = () => {},
): Promise<ReportsResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-reports-'));
  try {
    progress(`reports: ${DISTINCT_PHOTOS} photos of ${WIDTH} × ${HEIGHT}…`);
    // Loaded here only: the child processes measure the PDF code without sharp in memory.
    const { photoJpeg } = await import('../apps/server/test/images.js');
    const manifest: Manifest = { files: [] };
    for (let i = 0; i < DISTINCT_PHOTOS; i++) {
      const jpeg = await photoJpeg(WIDTH, HEIGHT, QUALITY);
      const file = path.join(dir, `photo-${i}.jpg`);
      writeFileSync(file, jpeg);
      const sha256 = createHash('sha256').update(jpeg).digest('hex');
      manifest.files.push({ file, sha256, width: WIDTH, height: HEIGHT });
    }
    writeFileSync(path.join(dir, 'photos.json'), JSON.stringify(manifest));
    const jpegKiB = manifest.files.map((f) => statSync(f.file).size / 1024);

    const results = new Map<string, CaseResult[]>();
    const key = (kind: Kind, size: number) => `${kind}:${size}`;
    for (let round = 0; round < options.rounds; round++) {
      for (const size of options.sizes) {
        const order: Kind[] = round % 2 ? ['baseline', 'report'] : ['report', 'baseline'];
        for (const kind of order) {
          progress(`reports: round ${round + 1}/${options.rounds}, ${kind}, ${size} photos…`);
          const result = await runChild(kind, size, dir);
          results.set(key(kind, size), [...(results.get(key(kind, size)) ?? []), result]);
        }
      }
    }

    const get = (kind: Kind, size: number) => results.get(key(kind, size)) ?? [];
    const rounds = Array.from({ length: options.rounds }, (_, round) => round);
    /** Least-squares slope and intercept of a round's times (ms, or CPU ms) over the sizes. */
    const fit = (kind: Kind, round: number, of: 'ms' | 'cpuMs') => {
      const points = options.sizes.map((size) => ({
        x: size,
        y: get(kind, size)[round]?.[of] ?? NaN,
      }));
      const mx = points.reduce((sum, p) => sum + p.x, 0) / points.length;
      const my = points.reduce((sum, p) => sum + p.y, 0) / points.length;
      const slope =
        points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0) /
        points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
      return { slope, intercept: my - slope * mx };
    };
    const slopes = (kind: Kind, of: 'ms' | 'cpuMs' = 'ms') =>
      rounds.map((round) => fit(kind, round, of));
    const slopeRatio = median(
      rounds.map((round) => fit('report', round, 'ms').slope / fit('baseline', round, 'ms').slope),
    );
    const cpuSlopeRatio = median(
      rounds.map(
        (round) => fit('report', round, 'cpuMs').slope / fit('baseline', round, 'cpuMs').slope,
      ),
    );
    const rows: Row[] = [
      measured(
        `report PDF (layout ${LAYOUT}): CPU time per photo (slope over ${options.sizes.join(', ')} photos)`,
        {
          value: perPhoto(median(slopes('report', 'cpuMs').map((f) => f.slope))),
          baseline: `bare pdfkit ${perPhoto(median(slopes('baseline', 'cpuMs').map((f) => f.slope)))}`,
          ratio: times(cpuSlopeRatio),
        },
        cpuSlopeRatio,
        atMost(TIME_TARGET),
      ),
      measured(
        '↳ the same in wall-clock time',
        {
          value: perPhoto(median(slopes('report').map((f) => f.slope))),
          baseline: `bare pdfkit ${perPhoto(median(slopes('baseline').map((f) => f.slope)))}`,
          ratio: times(slopeRatio),
        },
        slopeRatio,
      ),
    ];
    for (const size of options.sizes) {
      const report = get('report', size);
      const baseline = get('baseline', size);
      const ratio = median(report.map((r, i) => r.ms / (baseline[i]?.ms ?? NaN)));
      rows.push(
        measured(
          `↳ ${size} photos: total time / photos`,
          {
            value: perPhoto(median(report.map((r) => r.ms)) / size),
            baseline: `bare pdfkit ${perPhoto(median(baseline.map((r) => r.ms)) / size)}`,
            ratio: times(ratio),
          },
          ratio,
        ),
      );
    }
    rows.push(
      measured(
        '↳ a report before its first photo (intercept: fonts, cover, index)',
        {
          value: millis(median(slopes('report').map((f) => f.intercept))),
          baseline: `bare pdfkit ${millis(median(slopes('baseline').map((f) => f.intercept)))}`,
        },
        NaN,
      ),
    );
    const smallest = options.sizes[0] ?? 0;
    const largest = options.sizes[options.sizes.length - 1] ?? 0;
    const growth = (kind: Kind) =>
      median(
        get(kind, largest).map((r, i) => r.maxRssKiB / (get(kind, smallest)[i]?.maxRssKiB ?? NaN)),
      );
    const rssOf = (kind: Kind, size: number) => median(get(kind, size).map((r) => r.maxRssKiB));
    rows.push(
      measured(
        `report PDF (layout ${LAYOUT}), peak RSS at ${largest} photos`,
        {
          value: mib(rssOf('report', largest)),
          baseline: `${smallest} photos ${mib(rssOf('report', smallest))}`,
          ratio: times(growth('report')),
        },
        growth('report'),
        atMost(RSS_TARGET),
      ),
      measured(
        `↳ bare pdfkit, peak RSS at ${largest} photos`,
        {
          value: mib(rssOf('baseline', largest)),
          baseline: `${smallest} photos ${mib(rssOf('baseline', smallest))}`,
          ratio: times(growth('baseline')),
        },
        growth('baseline'),
      ),
    );

    const notes = [
      `reports: ${DISTINCT_PHOTOS} distinct ${WIDTH} × ${HEIGHT} JPEGs (quality ${QUALITY}, ` +
        `${Math.min(...jpegKiB).toFixed(0)}–${Math.max(...jpegKiB).toFixed(0)} KiB), each photo read ` +
        `from disk; one child process per case (after an untimed report of ${WARM_UP_PHOTOS}), ` +
        `${options.rounds} round(s)`,
      `reports: peak RSS per size, report / bare pdfkit: ` +
        options.sizes
          .map((size) => `${size}: ${mib(rssOf('report', size))} / ${mib(rssOf('baseline', size))}`)
          .join(', '),
      `reports: CPU time before the first photo (intercept): report ` +
        `${millis(median(slopes('report', 'cpuMs').map((f) => f.intercept)))}, bare ` +
        `${millis(median(slopes('baseline', 'cpuMs').map((f) => f.intercept)))}`,
      `reports: PDF of ${largest} photos: report ${(median(get('report', largest).map((r) => r.bytes)) / 2 ** 20).toFixed(1)} MiB, ` +
        `${get('report', largest)[0]?.pages ?? 0} pages; bare ` +
        `${(median(get('baseline', largest).map((r) => r.bytes)) / 2 ** 20).toFixed(1)} MiB, ` +
        `${get('baseline', largest)[0]?.pages ?? 0} pages`,
    ];
    return { rows, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const arg = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

if (isMain(import.meta.url)) {
  const kind = arg('child');
  if (kind === 'report' || kind === 'baseline') {
    await child(kind, Number(arg('photos')), arg('dir') ?? '');
  } else {
    const quick = process.argv.includes('--quick');
    const started = performance.now();
    const result = await measureReports(quick ? quickReports : fullReports, (line) =>
      console.error(`[reports ${((performance.now() - started) / 1000).toFixed(0)} s] ${line}`),
    );
    console.log(`- Node ${process.version}, ${availableParallelism()} cores`);
    for (const note of result.notes) console.log(`- ${note}`);
    console.log();
    console.log(formatTable(result.rows));
    console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}
