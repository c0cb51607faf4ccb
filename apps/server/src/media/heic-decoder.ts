// HEVC-coded HEIC/HEIF decoding, since sharp's prebuilt libvips has no HEVC decoder: Debian's
// libheif in a child process when it is installed (heic-native.ts), else WASM libheif in worker
// threads (heic-worker.mjs).
import { availableParallelism, tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { corruptImage, ImageError, imageTooLarge } from './image-error.js';
import { createNativeHeicDecoder, findHeifDecoder, type NativeHeicDecoder } from './heic-native.js';
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
  /** Top-level images in the file; the native decoder is used for single-image files only. */
  pages?: number;
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
   * Decodes the file off the main thread into an encoded image sharp reads (an uncompressed
   * TIFF from WASM and from libheif 1.17 and later, a q95 JPEG from an older libheif), upright
   * (libheif applies the HEIF rotation and mirroring: any EXIF orientation must not be applied
   * again) and carrying the photo's ICC profile. Throws ImageError `too_large` or `corrupt`.
   */
  decode(task: HeicTask): Promise<Buffer>;
  /** Ends idle workers now, and busy ones as soon as their task is done. */
  close(): Promise<void>;
}

/** HEIC_DECODER: `auto` uses Debian's libheif when it is installed, else WASM. */
export type HeicDecoderMode = 'auto' | 'native' | 'wasm';

export interface ChosenHeicDecoder extends HeicDecoder {
  /** What decodes single-image HEICs without transparency (the others always go to WASM). */
  readonly kind: 'native' | 'wasm';
  /** The native decoder's path, when `kind` is native. */
  readonly binary: string | null;
}

/**
 * The server's HEIC decoder: native when `mode` is `native`, or `auto` and heif-dec/heif-convert
 * is on PATH (looked up once per process); WASM otherwise. `native` without the binary throws,
 * so a server (or test) that asked for it cannot quietly run the slow path.
 *
 * Files with transparency or several top-level images go to WASM in every mode: the native
 * intermediate has no alpha (a PNG one took 4–7 s to write for 8.5 MP with libheif 1.15, slower
 * than WASM), and heif-dec decodes every top-level image, while only the primary's size was
 * checked.
 */
export function createHeicDecoder(
  options: {
    mode?: HeicDecoderMode;
    parallelism?: number;
    /** Private folder for the native decoder's intermediate file. */
    tempDir?: string;
    /** The native decoder binary; found on PATH when unset. */
    binary?: string;
    timeoutMs?: number;
  } = {},
): ChosenHeicDecoder {
  const mode = options.mode ?? 'auto';
  const parallelism = options.parallelism ?? Math.max(1, availableParallelism());
  const wasm = createWasmHeicDecoder({ parallelism });
  const binary = mode === 'wasm' ? null : (options.binary ?? findHeifDecoder());
  if (mode === 'native' && !binary) {
    throw new Error(
      'HEIC_DECODER=native, but neither heif-dec nor heif-convert is on PATH (Debian: apt-get install libheif-examples)',
    );
  }
  const native: NativeHeicDecoder | null = binary
    ? createNativeHeicDecoder({
        binary,
        tempDir: options.tempDir ?? tmpdir(),
        parallelism,
        timeoutMs: options.timeoutMs,
      })
    : null;
  return {
    kind: native ? 'native' : 'wasm',
    binary,
    async decode(task) {
      if (!native || task.keepAlpha || (task.pages ?? 1) > 1) return wasm.decode(task);
      try {
        return await native.decode(task.filePath, task.icc);
      } catch (err) {
        // A binary gone since start-up or a full temp dir says nothing of the photo: WASM
        // decodes it instead.
        if (err instanceof ImageError || mode === 'native') throw err;
        return wasm.decode(task);
      }
    },
    close: () => wasm.close(),
  };
}

/**
 * A pool of HEIC decoder workers: at most `parallelism` decode at once; a finished worker is
 * kept warm for the next photo (loading the WASM module takes ~0.1 s) until it has been idle
 * for a while.
 */
export function createWasmHeicDecoder(
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
