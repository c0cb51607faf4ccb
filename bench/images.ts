/**
 * Upload image pipeline: what an upload costs on top of a bare resize.
 *
 *   npx tsx bench/images.ts
 *
 * 1. A generated 12 MP JPEG (4000×3000, photo-like grain, q90) through the image processor (sniff,
 *    header + pixel check, EXIF read, one decode with orientation/sRGB/shrink, formatted JPEG and
 *    preview WebP) against a bare `sharp(file).resize(2048).jpeg()` of the same file.
 * 2. ICC handling: the same JPEG tagged with an sRGB profile and with a Display P3 profile
 *    (converted to sRGB after shrinking) against the untagged one, and the P3 file against a bare
 *    sharp resize of it (which converts before shrinking).
 * 3. The real iPhone HEIC (decoded by Debian's libheif when installed, else WASM) against a generated JPEG with the
 *    same pixel count.
 * 4. Throughput: a batch of uploads through `createImageProcessor` with concurrency 1 and 2.
 *
 * `measureImages` is also called by bench/run.ts (`npm run bench`), with fewer rounds in --quick.
 *
 * The machine is shared and noisy, so the contenders are interleaved call by call over several
 * rounds and the median of the per-round ratios is reported. HEIC: PHOTO_CORPUS_DIR (default
 * ../shared/fixtures/photos) must hold iphone-IMG_5195.heic, or that part is skipped.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import {
  FORMATTED_MAX_EDGE,
  createImageProcessor,
} from '../apps/server/src/media/image-processor.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { compare, isMain, median, time, type Comparison } from './measure.js';

const MAX_PIXELS = 120_000_000;
const corpusDir =
  process.env.PHOTO_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/fixtures/photos');
const heicFile = path.join(corpusDir, 'iphone-IMG_5195.heic');

export interface ImageOptions {
  /** Interleaved rounds and calls per round of the JPEG comparisons. */
  rounds: number;
  calls: number;
  heicRounds: number;
  heicCalls: number;
  /** The ICC profile comparisons (2.). */
  icc: boolean;
  /** Rounds of the throughput batches (4.); 0 leaves them out. */
  throughputRounds: number;
}

export const fullImages: ImageOptions = {
  rounds: 7,
  calls: 3,
  heicRounds: 5,
  heicCalls: 2,
  icc: true,
  throughputRounds: 3,
};
export const quickImages: ImageOptions = {
  rounds: 3,
  calls: 1,
  heicRounds: 2,
  heicCalls: 1,
  icc: false,
  throughputRounds: 0,
};

export interface Throughput {
  label: string;
  /** Photos per second with 1 and with 2 concurrent processings (medians of the batches). */
  one: number;
  two: number;
}

export interface ImageResults {
  /** The pipeline (a) against a bare sharp resize (b) of the same 12 MP JPEG. */
  pipeline: Comparison;
  icc: { srgb: Comparison; p3: Comparison; p3Bare: Comparison } | null;
  /** HEIC (a, worker warm) against a JPEG of the same pixel count (b); null without the file. */
  heic: { vsJpeg: Comparison; coldMs: number; megapixels: number } | null;
  throughput: Throughput[];
  peakRssBytes: number;
  /** What ran: versions, cores, whether the HEIC file was found. */
  notes: string[];
}

export async function measureImages(options: ImageOptions): Promise<ImageResults> {
  let peakRss = 0;
  const rssTimer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  // One processor for the single-file measurements, roomy enough never to queue a call.
  const newProcessor = () =>
    createImageProcessor({
      maxPixels: MAX_PIXELS,
      concurrency: availableParallelism(),
      maxQueue: 64,
    });
  let images = newProcessor();
  const processImage = (file: string) => images.process(file);
  const notes = [
    `sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}, ` +
      `libvips threads per image ${sharp.concurrency()}, HEIC decoder: ${images.heicDecoder}`,
  ];
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-images-'));
  try {
    const jpeg12 = await photoJpeg(4000, 3000, 90);
    const jpegFile = path.join(dir, 'photo-12mp.jpg');
    writeFileSync(jpegFile, jpeg12);
    notes.push(`12 MP JPEG: ${(jpeg12.length / 1e6).toFixed(1)} MB`);

    // 1. pipeline vs bare resize
    const pipeline = () => processImage(jpegFile);
    const bareResize = (file: string) => () =>
      sharp(file)
        .resize({ width: FORMATTED_MAX_EDGE, height: FORMATTED_MAX_EDGE, fit: 'inside' })
        .jpeg()
        .toBuffer();
    const vsBare = await compare(pipeline, bareResize(jpegFile), options.rounds, options.calls);

    // 2. ICC profiles
    let icc: ImageResults['icc'] = null;
    if (options.icc) {
      const p3File = path.join(dir, 'photo-12mp-p3.jpg');
      writeFileSync(
        p3File,
        await sharp(jpeg12).withIccProfile('p3').jpeg({ quality: 90 }).toBuffer(),
      );
      const srgbFile = path.join(dir, 'photo-12mp-srgb.jpg');
      writeFileSync(
        srgbFile,
        await sharp(jpeg12).withIccProfile('srgb').jpeg({ quality: 90 }).toBuffer(),
      );
      const p3Pipeline = () => processImage(p3File);
      icc = {
        srgb: await compare(() => processImage(srgbFile), pipeline, options.rounds, options.calls),
        p3: await compare(p3Pipeline, pipeline, options.rounds, options.calls),
        p3Bare: await compare(p3Pipeline, bareResize(p3File), options.rounds, options.calls),
      };
    }

    // 3. HEIC vs JPEG of the same pixel count
    let heic: ImageResults['heic'] = null;
    if (existsSync(heicFile)) {
      const heicMeta = await sharp(heicFile).metadata();
      const sameSize = path.join(dir, 'same-size.jpg');
      writeFileSync(sameSize, await photoJpeg(heicMeta.width, heicMeta.height, 90));
      // A fresh processor has no warm HEIC worker yet.
      await images.close();
      images = newProcessor();
      const coldMs = await time(() => processImage(heicFile));
      const vsJpeg = await compare(
        () => processImage(heicFile),
        () => processImage(sameSize),
        options.heicRounds,
        options.heicCalls,
      );
      heic = { vsJpeg, coldMs, megapixels: (heicMeta.width * heicMeta.height) / 1e6 };
    } else {
      notes.push(`HEIC skipped: ${heicFile} not found (set PHOTO_CORPUS_DIR)`);
    }

    // 4. throughput with 1 and 2 concurrent processings
    const batch = async (concurrency: number, file: string, count: number) => {
      const processor = createImageProcessor({
        maxPixels: MAX_PIXELS,
        concurrency,
        maxQueue: count,
      });
      const elapsed = await time(() =>
        Promise.all(Array.from({ length: count }, () => processor.process(file))),
      );
      await processor.close();
      return (count / elapsed) * 1000;
    };
    const through = async (label: string, file: string, count: number): Promise<Throughput> => {
      const one: number[] = [];
      const two: number[] = [];
      for (let r = 0; r < options.throughputRounds; r++) {
        one.push(await batch(1, file, count));
        two.push(await batch(2, file, count));
      }
      return { label, one: median(one), two: median(two) };
    };
    const throughput: Throughput[] = [];
    if (options.throughputRounds > 0) {
      throughput.push(await through('12 MP JPEG throughput, batches of 8', jpegFile, 8));
      if (existsSync(heicFile))
        throughput.push(await through('HEIC throughput, batches of 4', heicFile, 4));
    }
    return { pipeline: vsBare, icc, heic, throughput, peakRssBytes: peakRss, notes };
  } finally {
    clearInterval(rssTimer);
    await images.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => `${v.toFixed(0)} ms`;
const ratio = (v: number) => `${v.toFixed(2)}×`;

function printTable(r: ImageResults) {
  const rows: { measurement: string; value: string; against: string; ratio: string }[] = [];
  const row = (measurement: string, c: Comparison, against: string) =>
    rows.push({
      measurement,
      value: ms(c.a),
      against: `${against} ${ms(c.b)}`,
      ratio: ratio(c.ratio),
    });
  row('12 MP JPEG upload pipeline', r.pipeline, 'bare sharp resize');
  if (r.icc) {
    row('12 MP JPEG, sRGB profile', r.icc.srgb, 'untagged');
    row('12 MP JPEG, Display P3 profile', r.icc.p3, 'untagged');
    row('12 MP JPEG, Display P3 profile', r.icc.p3Bare, 'bare sharp resize');
  }
  if (r.heic) {
    row(
      `iPhone HEIC (${r.heic.megapixels.toFixed(1)} MP, worker warm)`,
      r.heic.vsJpeg,
      'same-size JPEG',
    );
    rows.push({
      measurement: 'iPhone HEIC, first of a batch (worker start)',
      value: ms(r.heic.coldMs),
      against: '',
      ratio: '',
    });
  }
  for (const t of r.throughput)
    rows.push({
      measurement: `${t.label}: concurrency 2`,
      value: `${t.two.toFixed(2)} /s`,
      against: `concurrency 1 ${t.one.toFixed(2)} /s`,
      ratio: ratio(t.two / t.one),
    });
  rows.push({
    measurement: 'peak RSS of this process',
    value: `${(r.peakRssBytes / 1024 / 1024).toFixed(0)} MiB`,
    against: '',
    ratio: '',
  });
  const headers = {
    measurement: 'measurement',
    value: 'median',
    against: 'baseline',
    ratio: 'median ratio',
  };
  const all = [headers, ...rows];
  const width = (k: keyof typeof headers) => Math.max(...all.map((x) => x[k].length));
  const line = (x: typeof headers) =>
    `| ${x.measurement.padEnd(width('measurement'))} | ${x.value.padStart(width('value'))} | ${x.against.padEnd(width('against'))} | ${x.ratio.padStart(width('ratio'))} |`;
  console.log(line(headers));
  console.log(
    `|${(['measurement', 'value', 'against', 'ratio'] as const).map((k) => '-'.repeat(width(k) + 2)).join('|')}|`,
  );
  for (const x of rows) console.log(line(x));
}

if (isMain(import.meta.url)) {
  console.log(`Node ${process.version}, ${availableParallelism()} cores`);
  const results = await measureImages(fullImages);
  for (const note of results.notes) console.log(note);
  console.log();
  printTable(results);
}
