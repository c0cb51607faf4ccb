// HEVC-coded HEIC decoding by Debian's libheif command-line decoder (`heif-dec`, called
// `heif-convert` before libheif 1.17; package libheif-examples, with libde265), in a child
// process. Measured on the corpus iPhone photo it is ~3× faster than the WASM libheif of
// heic-decoder.ts, which stays the fallback when the binary is missing.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { corruptImage } from './image-error.js';
import { createLimiter } from './limiter.js';
import { removeFile } from './temp-files.js';

/** Tried in this order on PATH: the current name, then the pre-1.17 one. */
export const HEIF_DECODER_NAMES = ['heif-dec', 'heif-convert'] as const;
const TIMEOUT_MS = 60_000;
/**
 * The decoded pixels travel to sharp as a JPEG of this quality. Measured on the iPhone photo
 * (8.5 MP): a PNG took 4–7 s to write against 0.4–1 s for the JPEG; y4m (YUV) is no faster
 * and sharp cannot read it. The formatted image is a q82 JPEG of at most 2048 px, so a q95
 * 4:2:0 intermediate (the HEVC source is 4:2:0 too) changes it by about one level per channel.
 */
const INTERMEDIATE_JPEG_QUALITY = 95;

const isExecutable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first of `names` found executable on `searchPath`, or null. */
export function findOnPath(
  names: readonly string[],
  searchPath = process.env.PATH ?? '',
): string | null {
  const dirs = searchPath.split(path.delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return null;
}

let found: string | null | undefined;

/** Debian's heif-dec or heif-convert, looked up once per process; null when neither is there. */
export function findHeifDecoder(): string | null {
  if (found === undefined) found = findOnPath(HEIF_DECODER_NAMES);
  return found;
}

/**
 * The native decoder could not run: its binary is gone or not executable, or its temp file could
 * not be made (full disk). The photo is not to blame; `auto` decodes it with WASM instead.
 */
export class HeifDecoderUnavailable extends Error {
  constructor(cause: unknown) {
    super('the native HEIC decoder could not run', { cause });
    this.name = 'HeifDecoderUnavailable';
  }
}

export interface NativeHeicDecoder {
  readonly binary: string;
  /**
   * Decodes the file's primary image to an upright JPEG (libheif applies the HEIF rotation and
   * mirroring) that carries the photo's ICC profile. The caller has checked the pixel count
   * from the header. Throws ImageError `corrupt` when the decoder fails or is killed after the
   * timeout, HeifDecoderUnavailable when it cannot run. The intermediate file lives in
   * `tempDir` only while the decoder runs.
   */
  decode(filePath: string): Promise<Buffer>;
}

export function createNativeHeicDecoder(options: {
  binary: string;
  /** Private folder (0700) for the intermediate file: the server's upload temp dir. */
  tempDir: string;
  parallelism: number;
  timeoutMs?: number;
}): NativeHeicDecoder {
  const limiter = createLimiter(options.parallelism);
  const timeout = options.timeoutMs ?? TIMEOUT_MS;

  const run = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      // An argument array and no shell: the file names are never parsed by anything.
      execFile(
        options.binary,
        args,
        { timeout, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true },
        (err, _stdout, stderr) => {
          if (!err) return resolve();
          // 'ENOENT', 'EACCES'…: the decoder could not be started, which says nothing of the file.
          if (typeof err.code === 'string') return reject(new HeifDecoderUnavailable(err));
          const killed = 'killed' in err && err.killed;
          const detail = killed
            ? `HEIC decoding timed out after ${timeout} ms`
            : `${path.basename(options.binary)} failed: ${String(stderr).trim() || err.message}`;
          reject(new Error(detail, { cause: err }));
        },
      );
    });

  return {
    binary: options.binary,
    decode: (filePath) =>
      limiter.run(async () => {
        const output = path.join(options.tempDir, `${randomUUID()}.heic.jpg`);
        try {
          await mkdir(options.tempDir, { recursive: true, mode: 0o700 });
          // Made here, 0600 and exclusively, so the decoder writes into a file only we can read.
          await (await open(output, 'wx', 0o600)).close();
        } catch (err) {
          // A full disk or unwritable temp dir says nothing of the photo either.
          throw new HeifDecoderUnavailable(err);
        }
        try {
          await run([
            '--quiet',
            '-q',
            String(INTERMEDIATE_JPEG_QUALITY),
            // Absolute, so a name can never be read as an option.
            path.resolve(filePath),
            output,
          ]);
          const jpeg = await readFile(output);
          if (jpeg.length === 0) throw new Error('the HEIC decoder wrote nothing');
          return jpeg;
        } catch (err) {
          if (err instanceof HeifDecoderUnavailable) throw err;
          throw corruptImage(err);
        } finally {
          await removeFile(output);
        }
      }),
  };
}
