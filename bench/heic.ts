/**
 * HEIC upload to ready: the real iPhone HEIC against a generated JPEG of the same pixel size,
 * with the native decoder (Debian's libheif: heif-dec/heif-convert) and with the WASM fallback.
 *
 *   npx tsx bench/heic.ts                  (needs libheif-examples for the native rows)
 *
 * 1. `POST /api/upload/autoupload` through `app.inject` (SQLite, local disk), one server with
 *    HEIC_DECODER=native and one with HEIC_DECODER=wasm: the HEIC on each and the JPEG.
 * 2. The image processor's `process()` alone for the same three.
 *
 * The machine is shared and noisy: per round every contender runs CALLS times, interleaved,
 * and the median of the per-round ratios to the JPEG is reported. PHOTO_CORPUS_DIR (default
 * ../shared/fixtures/photos) must hold iphone-IMG_5195.heic.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createImageProcessor } from '../apps/server/src/media/image-processor.js';
import { findHeifDecoder } from '../apps/server/src/media/heic-native.js';
import { api, createTestContext, signedInUser } from '../apps/server/test/helpers.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { uploadForm } from './uploads.js';
import { median, time } from './measure.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = 2;
const corpusDir =
  process.env.PHOTO_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/fixtures/photos');
const heicFile = path.join(corpusDir, 'iphone-IMG_5195.heic');

async function uploader(heicDecoder: 'native' | 'wasm') {
  const ctx = await createTestContext({ HEIC_DECODER: heicDecoder });
  const user = await signedInUser(ctx);
  const project = await api(ctx, {
    method: 'POST',
    url: '/api/project/create',
    token: user.token,
    payload: { project: { name: 'Bench', location: 'Hamburg, Germany' } },
  });
  const projectId = project.json<{ id: number }>().id;
  const upload = (file: Buffer, name: string) => {
    const body = uploadForm(file, name, 'application/octet-stream', projectId);
    return async () => {
      const res = await api(ctx, {
        method: 'POST',
        url: '/api/upload/autoupload',
        token: user.token,
        headers: body.headers,
        payload: body.payload,
      });
      if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
    };
  };
  return { ctx, upload };
}

/**
 * CPU milliseconds used so far by this process (all its threads: libvips, WASM workers) and by
 * its finished child processes (the native decoder), from /proc (Linux; 10 ms ticks).
 */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime, stime, cutime, cstime: fields 14–17 of the line, 11–14 counted after "pid (comm) ".
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) * 10;
}

/**
 * Interleaves the contenders call by call; medians in ms and per-round ratios to `base`, and
 * the mean CPU time per call: on a shared, loaded machine the wall-clock ratio depends on how
 * the other load shares the cores, the CPU time much less.
 */
async function rounds(contenders: Record<string, () => Promise<unknown>>, base: string) {
  for (const fn of Object.values(contenders)) await fn(); // warm-up (WASM workers, caches)
  const all: Record<string, number[]> = {};
  const ratios: Record<string, number[]> = {};
  const cpu: Record<string, number> = {};
  for (let r = 0; r < ROUNDS; r++) {
    const round: Record<string, number[]> = {};
    for (let c = 0; c < CALLS; c++)
      for (const [name, fn] of Object.entries(contenders)) {
        const before = cpuMs();
        (round[name] ??= []).push(await time(fn));
        cpu[name] = (cpu[name] ?? 0) + cpuMs() - before;
      }
    const baseMs = median(round[base] ?? []);
    for (const [name, times] of Object.entries(round)) {
      (all[name] ??= []).push(...times);
      (ratios[name] ??= []).push(median(times) / baseMs);
    }
  }
  const cpuPerCall = (name: string) => (cpu[name] ?? 0) / (ROUNDS * CALLS);
  return Object.keys(contenders).map((name) => ({
    name,
    ms: Math.round(median(all[name] ?? [])),
    ratio: `${median(ratios[name] ?? []).toFixed(2)}×`,
    'CPU ms': Math.round(cpuPerCall(name)),
    'CPU ratio': `${(cpuPerCall(name) / cpuPerCall(base)).toFixed(2)}×`,
  }));
}

async function main() {
  const binary = findHeifDecoder();
  if (!binary) throw new Error('heif-dec/heif-convert not found: apt-get install libheif-examples');
  const heic = readFileSync(heicFile);
  const meta = await sharp(heicFile).metadata();
  const jpeg = await photoJpeg(meta.width ?? 0, meta.height ?? 0, 90);
  console.log(
    `Node ${process.version}, ${availableParallelism()} cores, sharp ${sharp.versions.sharp}, ` +
      `native decoder ${binary}; ${ROUNDS} rounds × ${CALLS} calls`,
  );
  console.log(
    `iPhone HEIC ${meta.width}×${meta.height} (${(heic.length / 1e6).toFixed(2)} MB); ` +
      `same-size JPEG q90 (${(jpeg.length / 1e6).toFixed(2)} MB)`,
  );

  const native = await uploader('native');
  const wasm = await uploader('wasm');
  try {
    console.log('\nupload to ready (POST /api/upload/autoupload):');
    console.table(
      await rounds(
        {
          'same-size JPEG': native.upload(jpeg, 'IMG_0001.jpg'),
          'HEIC, native': native.upload(heic, 'IMG_5195.heic'),
          'HEIC, WASM': wasm.upload(heic, 'IMG_5195.heic'),
        },
        'same-size JPEG',
      ),
    );

    const jpegFile = path.join(native.ctx.dataDir, 'same-size.jpg');
    writeFileSync(jpegFile, jpeg);
    const options = { maxPixels: 120_000_000, concurrency: 1 };
    const nativeImages = createImageProcessor({ ...options, heicDecoder: 'native' });
    const wasmImages = createImageProcessor({ ...options, heicDecoder: 'wasm' });
    console.log('\nimage processor process():');
    console.table(
      await rounds(
        {
          'same-size JPEG': () => nativeImages.process(jpegFile),
          'HEIC, native': () => nativeImages.process(heicFile),
          'HEIC, WASM': () => wasmImages.process(heicFile),
        },
        'same-size JPEG',
      ),
    );
    await Promise.all([nativeImages.close(), wasmImages.close()]);
  } finally {
    await native.ctx.close();
    await wasm.ctx.close();
  }
}

await main();
