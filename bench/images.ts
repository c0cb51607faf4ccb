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
import { compare, median, time } from './measure.js';

const MAX_PIXELS = 120_000_000;
const corpusDir =
  process.env.PHOTO_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/fixtures/photos');
const heicFile = path.join(corpusDir, 'iphone-IMG_5195.heic');

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

const ms = (v: number) => `${v.toFixed(0)} ms`;
const rows: { measurement: string; value: string; against: string; ratio: string }[] = [];
const row = (measurement: string, value: string, against: string, ratio: string) =>
  rows.push({ measurement, value, against, ratio });

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-images-'));
  try {
    console.log(
      `Node ${process.version}, ${availableParallelism()} cores, sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}, ` +
        `libvips threads per image ${sharp.concurrency()}, HEIC decoder: ${images.heicDecoder}`,
    );
    const jpeg12 = await photoJpeg(4000, 3000, 90);
    const jpegFile = path.join(dir, 'photo-12mp.jpg');
    writeFileSync(jpegFile, jpeg12);
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
    console.log(`12 MP JPEG: ${(jpeg12.length / 1e6).toFixed(1)} MB`);

    // 1. pipeline vs bare resize
    const pipeline = () => processImage(jpegFile);
    const bareResize = (file: string) => () =>
      sharp(file)
        .resize({ width: FORMATTED_MAX_EDGE, height: FORMATTED_MAX_EDGE, fit: 'inside' })
        .jpeg()
        .toBuffer();
    const bare = bareResize(jpegFile);
    const vsBare = await compare(pipeline, bare);
    row(
      '12 MP JPEG upload pipeline',
      ms(vsBare.a),
      `bare sharp resize ${ms(vsBare.b)}`,
      `${vsBare.ratio.toFixed(2)}×`,
    );

    // 2. ICC profiles
    const srgb = await compare(() => processImage(srgbFile), pipeline);
    row(
      '12 MP JPEG, sRGB profile',
      ms(srgb.a),
      `untagged ${ms(srgb.b)}`,
      `${srgb.ratio.toFixed(2)}×`,
    );
    const p3Pipeline = () => processImage(p3File);
    const p3 = await compare(p3Pipeline, pipeline);
    row(
      '12 MP JPEG, Display P3 profile',
      ms(p3.a),
      `untagged ${ms(p3.b)}`,
      `${p3.ratio.toFixed(2)}×`,
    );
    const p3Bare = await compare(p3Pipeline, bareResize(p3File));
    row(
      '12 MP JPEG, Display P3 profile',
      ms(p3Bare.a),
      `bare sharp resize ${ms(p3Bare.b)}`,
      `${p3Bare.ratio.toFixed(2)}×`,
    );

    // 3. HEIC vs JPEG of the same pixel count
    if (existsSync(heicFile)) {
      const heicMeta = await sharp(heicFile).metadata();
      const sameSize = path.join(dir, 'same-size.jpg');
      writeFileSync(sameSize, await photoJpeg(heicMeta.width, heicMeta.height, 90));
      // A fresh processor has no warm HEIC worker yet.
      await images.close();
      images = newProcessor();
      const cold = await time(() => processImage(heicFile));
      const heic = await compare(
        () => processImage(heicFile),
        () => processImage(sameSize),
        5,
        2,
      );
      const mp = ((heicMeta.width * heicMeta.height) / 1e6).toFixed(1);
      row(
        `iPhone HEIC (${mp} MP, worker warm)`,
        ms(heic.a),
        `same-size JPEG ${ms(heic.b)}`,
        `${heic.ratio.toFixed(2)}×`,
      );
      row('iPhone HEIC, first of a batch (worker start)', ms(cold), '', '');
    } else {
      console.log(`HEIC skipped: ${heicFile} not found (set PHOTO_CORPUS_DIR)`);
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
    const through = async (label: string, file: string, count: number, rounds: number) => {
      const one: number[] = [];
      const two: number[] = [];
      for (let r = 0; r < rounds; r++) {
        one.push(await batch(1, file, count));
        two.push(await batch(2, file, count));
      }
      const [a, b] = [median(one), median(two)];
      row(
        `${label}: concurrency 2`,
        `${b.toFixed(2)} /s`,
        `concurrency 1 ${a.toFixed(2)} /s`,
        `${(b / a).toFixed(2)}×`,
      );
    };
    await through('12 MP JPEG throughput, batches of 8', jpegFile, 8, 3);
    if (existsSync(heicFile)) await through('HEIC throughput, batches of 4', heicFile, 4, 3);

    clearInterval(rssTimer);
    row('peak RSS of this process', `${(peakRss / 1024 / 1024).toFixed(0)} MiB`, '', '');
    console.log();
    printTable();
  } finally {
    clearInterval(rssTimer);
    await images.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable() {
  const headers = {
    measurement: 'measurement',
    value: 'median',
    against: 'baseline',
    ratio: 'median ratio',
  };
  const all = [headers, ...rows];
  const width = (k: keyof typeof headers) => Math.max(...all.map((r) => r[k].length));
  const line = (r: typeof headers) =>
    `| ${r.measurement.padEnd(width('measurement'))} | ${r.value.padStart(width('value'))} | ${r.against.padEnd(width('against'))} | ${r.ratio.padStart(width('ratio'))} |`;
  console.log(line(headers));
  console.log(
    `|${['measurement', 'value', 'against', 'ratio'].map((k) => '-'.repeat(width(k as keyof typeof headers) + 2)).join('|')}|`,
  );
  for (const r of rows) console.log(line(r));
}

await main();
