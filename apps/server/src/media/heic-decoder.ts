// HEVC-coded HEIC/HEIF decoding in worker threads (heic-worker.mjs runs WASM libheif), since
// sharp's prebuilt libvips has no HEVC decoder.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { corruptImage, imageTooLarge } from './image-error.js';
import { createLimiter } from './limiter.js';

const WORKER_URL = new URL('./heic-worker.mjs', import.meta.url);
const WORKER_TIMEOUT_MS = 60_000;
const WORKER_IDLE_MS = 30_000;

export interface HeicTask {
  filePath: string;
  maxPixels: number;
  /** The original's ICC profile, carried into the TIFF so colour conversion stays right. */
  icc: Uint8Array | null;
  keepAlpha: boolean;
}

type HeicResult =
  | { ok: true; tiff: Uint8Array; width: number; height: number }
  | {
      ok: false;
      reason: 'too_many_pixels' | 'undecodable';
      message: string;
      width?: number;
      height?: number;
    };

export interface HeicDecoder {
  /**
   * Decodes the file off the main thread and returns an uncompressed TIFF (upright: libheif
   * applies the HEIF rotation and mirroring). Throws ImageError `too_large` or `corrupt`.
   */
  decode(task: HeicTask): Promise<Buffer>;
  /** Ends idle workers now, and busy ones as soon as their task is done. */
  close(): Promise<void>;
}

/**
 * A pool of HEIC decoder workers: at most `parallelism` decode at once; a finished worker is
 * kept warm for the next photo (loading the WASM module takes ~0.1 s) until it has been idle
 * for a while.
 */
export function createHeicDecoder(
  options: { parallelism?: number; idleMs?: number } = {},
): HeicDecoder {
  const idleMs = options.idleMs ?? WORKER_IDLE_MS;
  const limiter = createLimiter(options.parallelism ?? Math.max(1, availableParallelism()));
  const idle = new Map<Worker, NodeJS.Timeout>();
  let closed = false;

  const take = (): Worker => {
    for (const [worker, timer] of idle) {
      clearTimeout(timer);
      idle.delete(worker);
      worker.ref();
      return worker;
    }
    return new Worker(WORKER_URL);
  };

  const park = (worker: Worker) => {
    if (closed) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => {
      idle.delete(worker);
      void worker.terminate();
    }, idleMs);
    timer.unref();
    idle.set(worker, timer);
  };

  return {
    async decode(task) {
      const result = await limiter.run(async () => {
        const worker = take();
        try {
          const answer = await runOnWorker(worker, task);
          park(worker);
          return answer;
        } catch (err) {
          void worker.terminate();
          throw corruptImage(err);
        }
      });
      if (!result.ok) {
        if (result.reason === 'too_many_pixels')
          throw imageTooLarge((result.width ?? 0) * (result.height ?? 0), task.maxPixels);
        throw corruptImage(new Error(result.message));
      }
      return Buffer.from(result.tiff.buffer, result.tiff.byteOffset, result.tiff.byteLength);
    },
    async close() {
      closed = true;
      const workers = [...idle.keys()];
      for (const timer of idle.values()) clearTimeout(timer);
      idle.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

function runOnWorker(worker: Worker, task: HeicTask): Promise<HeicResult> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    };
    const onMessage = (message: HeicResult) => {
      cleanup();
      resolve(message);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`HEIC decoder exited with code ${code}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('HEIC decoding timed out'));
    }, WORKER_TIMEOUT_MS);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(task);
  });
}
