/**
 * Upload to ready, end to end: what `POST /api/upload/autoupload` costs for a 12 MP JPEG.
 *
 *   npx tsx bench/uploads.ts            (local disk storage, SQLite)
 *   TEST_DB=postgres TEST_DATABASE_URL=… npx tsx bench/uploads.ts
 *
 * 1. The whole call through `app.inject` — session check, multipart parsing, streaming to a temp
 *    file, sniffing, one decode, preview + formatted image, three storage writes, the row and the
 *    counts in one transaction, the answer with its signed links — against a bare
 *    `sharp(file).resize(2048).jpeg()` of the same file, interleaved call by call.
 * 2. Throughput: a batch of uploads with 1 and with 2 requests in flight.
 *
 * The machine is shared and noisy, so the median of the per-round ratios is reported.
 * `measureUploads` is also called by bench/run.ts (`npm run bench`), with fewer rounds in --quick.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { api, createTestContext, signedInUser, testDialect } from '../apps/server/test/helpers.js';
import { FORMATTED_MAX_EDGE } from '../apps/server/src/media/image-processor.js';
import { photoJpeg } from '../apps/server/test/images.js';
import { dtoPart, filePart, multipartBody } from '../apps/server/test/uploads.js';
import { compare, isMain, median, type Comparison } from './measure.js';

/** The multipart body the web app sends: the file first, then the JSON part. */
export const uploadForm = (file: Buffer, filename: string, type: string, projectId: number) =>
  multipartBody([
    filePart(file, filename, type),
    dtoPart({ name: '', description: '', projectId }),
  ]);

export interface UploadOptions {
  /** Interleaved rounds and calls per round of upload against bare resize. */
  rounds: number;
  calls: number;
  /** Uploads per throughput batch, and batches with 1 and with 2 in flight. */
  batch: number;
  batches: number;
}

export const fullUploads: UploadOptions = { rounds: 7, calls: 3, batch: 12, batches: 3 };
export const quickUploads: UploadOptions = { rounds: 3, calls: 1, batch: 6, batches: 1 };

export interface UploadResults {
  /** Upload to ready (a) against a bare sharp resize of the same file (b). */
  vsBare: Comparison;
  /** Uploads per second with 1 and with 2 requests in flight (medians of the batches). */
  one: number;
  two: number;
  batch: number;
  notes: string[];
}

export async function measureUploads(options: UploadOptions): Promise<UploadResults> {
  const ctx = await createTestContext();
  try {
    const notes = [
      `${testDialect}, ${ctx.storage.kind} storage, IMAGE_CONCURRENCY ${ctx.config.uploads.concurrency}, in process (app.inject)`,
    ];
    const user = await signedInUser(ctx);
    const project = await api(ctx, {
      method: 'POST',
      url: '/api/project/create',
      token: user.token,
      payload: { project: { name: 'Bench', location: 'Hamburg, Germany' } },
    });
    const projectId = project.json<{ id: number }>().id;

    const jpeg = await photoJpeg(4000, 3000, 90);
    const file = path.join(ctx.dataDir, 'photo-12mp.jpg');
    writeFileSync(file, jpeg);
    const body = uploadForm(jpeg, 'IMG_0001.jpg', 'image/jpeg', projectId);
    notes.push(`12 MP JPEG: ${(jpeg.length / 1e6).toFixed(1)} MB`);

    const upload = async () => {
      const res = await api(ctx, {
        method: 'POST',
        url: '/api/upload/autoupload',
        token: user.token,
        headers: body.headers,
        payload: body.payload,
      });
      if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
    };
    const bare = () =>
      sharp(file)
        .resize({ width: FORMATTED_MAX_EDGE, height: FORMATTED_MAX_EDGE, fit: 'inside' })
        .jpeg()
        .toBuffer();

    const vsBare = await compare(upload, bare, options.rounds, options.calls);

    const throughput = async (inFlight: number) => {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < options.batch) {
            next += 1;
            await upload();
          }
        }),
      );
      return options.batch / ((performance.now() - start) / 1000);
    };
    const one: number[] = [];
    const two: number[] = [];
    for (let r = 0; r < options.batches; r++) {
      one.push(await throughput(1));
      two.push(await throughput(2));
    }
    return { vsBare, one: median(one), two: median(two), batch: options.batch, notes };
  } finally {
    await ctx.close();
  }
}

if (isMain(import.meta.url)) {
  console.log(`Node ${process.version}, ${availableParallelism()} cores`);
  const r = await measureUploads(fullUploads);
  for (const note of r.notes) console.log(note);
  console.log(
    `upload to ready: ${r.vsBare.a.toFixed(0)} ms; bare sharp resize ${r.vsBare.b.toFixed(0)} ms; ` +
      `median ratio ${r.vsBare.ratio.toFixed(2)}×`,
  );
  console.log(
    `throughput (batches of ${r.batch}): 1 in flight ${r.one.toFixed(2)}/s; ` +
      `2 in flight ${r.two.toFixed(2)}/s (${(r.two / r.one).toFixed(2)}×)`,
  );
}
