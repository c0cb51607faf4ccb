// HEVC-coded HEIC decoding by Debian's libheif command-line decoder (`heif-dec`, called
// `heif-convert` before libheif 1.17; package libheif-examples, with libde265), in a child
// process. Measured on the corpus iPhone photo it is ~3× faster than the WASM libheif of
// heic-decoder.ts, which stays the fallback when the binary is missing. Where libheif has its
// FFmpeg decoder plugin (libheif-plugin-ffmpegdec, libheif 1.17 and later), that decodes HEVC,
// and where heif-dec writes TIFF (libheif 1.17 and later), the pixels travel as a TIFF.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOnce } from '../load-once.js';
import { corruptImage } from './image-error.js';
import { createLimiter } from './limiter.js';
import { removeFile } from './temp-files.js';
import { attachIccProfile } from './tiff-icc.js';

/** Tried in this order on PATH: the current name, then the pre-1.17 one. */
export const HEIF_DECODER_NAMES = ['heif-dec', 'heif-convert'] as const;
const TIMEOUT_MS = 60_000;
/**
 * Where heif-dec cannot write TIFF (libheif before 1.17), the decoded pixels travel to sharp as
 * a JPEG of this quality. Measured on the iPhone photo (8.5 MP): a PNG took 4–7 s to write
 * against 0.4–1 s for the JPEG; y4m (YUV) is no faster and sharp cannot read it. The formatted
 * image is a q82 JPEG of at most 2048 px, so a q95 4:2:0 intermediate (the HEVC source is 4:2:0
 * too) changes it by about one level per channel.
 *
 * libheif 1.19's JPEG writer, though, stores the decoded YCbCr as it is: a photo whose colours
 * are not coded as JPEG's (sample.heif of the corpus) comes out 9 levels off on average. Its
 * TIFF holds RGB converted by libheif, like its PNG (identical pixels), written as fast as the
 * JPEG, and sharp reads it ~90 ms faster than it decodes the JPEG; only the ICC profile is
 * missing, which tiff-icc.ts adds.
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

/**
 * libheif's HEVC decoder plugins this server picks by name, best first, where the binary lists
 * them (`heif-dec --list-decoders`). FFmpeg's decoder gives the same pixels as libde265 (libheif's
 * default) on the corpus iPhone photo in 0.32–0.37 s against 0.40–0.44 s, and upload to ready
 * took 2.1–2.4× a same-size JPEG with it against 2.3–2.9× with libde265 (bench/heic.ts, both
 * with the JPEG intermediate). Without any of them, no `-d` is passed and libheif chooses.
 */
export const PREFERRED_HEVC_DECODERS = ['ffmpeg'] as const;

/** The ids under `HEIC decoders:` in the output of `heif-dec --list-decoders`. */
export function listedHevcDecoders(listing: string): string[] {
  const ids: string[] = [];
  let inHeic = false;
  for (const line of listing.split('\n')) {
    if (/^\S.*:\s*$/.test(line)) inHeic = /^HEIC decoders:/.test(line);
    else if (inHeic) {
      const id = /^- (\S+) = /.exec(line)?.[1];
      if (id) ids.push(id);
    }
  }
  return ids;
}

/** What a heif-dec binary can do, asked once: its HEVC decoder, and whether it writes TIFF. */
export interface HeifDecoderAbilities {
  /** The preferred decoder plugin it lists (PREFERRED_HEVC_DECODERS), or null: libheif's. */
  hevcDecoder: string | null;
  /** The intermediate: `tiff` where its help names the suffix (libheif 1.17+), else `jpeg`. */
  intermediate: 'tiff' | 'jpeg';
}

/** How the decoder binary is run: killed outright after `timeoutMs`, at most 1 MB of output. */
const runOptions = (timeoutMs: number) =>
  ({
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 1024 * 1024,
    windowsHide: true,
  }) as const;

/** What `args` prints (heif-dec prints its help on stderr), or '' without an answer in time. */
const printed = (binary: string, args: string[], timeoutMs: number) =>
  new Promise<string>((resolve) => {
    execFile(
      binary,
      args,
      runOptions(timeoutMs),
      // A help screen may exit non-zero; whatever it printed still counts.
      (_err, stdout, stderr) => resolve(`${String(stdout ?? '')}${String(stderr ?? '')}`),
    );
  });

/** Asks `binary` (heif-dec or heif-convert) what it can do: `--list-decoders` and `--help`. */
export async function probeHeifDecoder(
  binary: string,
  timeoutMs: number,
): Promise<HeifDecoderAbilities> {
  const [listing, help] = await Promise.all([
    printed(binary, ['--list-decoders'], timeoutMs),
    printed(binary, ['--help'], timeoutMs),
  ]);
  const listed = listedHevcDecoders(listing);
  return {
    hevcDecoder: PREFERRED_HEVC_DECODERS.find((id) => listed.includes(id)) ?? null,
    // "These suffixes are recognized: jpg, jpeg, png, tif, tiff, y4m."
    intermediate: /recogni[sz]ed:[^\n]*\btiff?\b/.test(help) ? 'tiff' : 'jpeg',
  };
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

class DecoderTimedOut extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'DecoderTimedOut';
  }
}

export interface NativeHeicDecoder {
  readonly binary: string;
  /** What the binary can do, asked of it on the first decode, once. */
  abilities(): Promise<HeifDecoderAbilities>;
  /**
   * Decodes the file's primary image to an upright TIFF or JPEG (libheif applies the HEIF
   * rotation and mirroring) that carries `icc`, the photo's ICC profile. The caller has checked
   * the pixel count from the header. Throws ImageError `corrupt` when the decoder fails or is
   * killed after the timeout, HeifDecoderUnavailable when it cannot run. The intermediate file
   * lives in `tempDir` only while the decoder runs. A photo the preferred plugin fails on is
   * decoded again with libheif's default decoder before it is refused.
   */
  decode(filePath: string, icc: Uint8Array | null): Promise<Buffer>;
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
  const abilities = loadOnce(() => probeHeifDecoder(options.binary, timeout));

  const run = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      // An argument array and no shell: the file names are never parsed by anything.
      execFile(options.binary, args, runOptions(timeout), (err, _stdout, stderr) => {
        if (!err) return resolve();
        // 'ENOENT', 'EACCES'…: the decoder could not be started, which says nothing of the file.
        if (typeof err.code === 'string') return reject(new HeifDecoderUnavailable(err));
        const killed = 'killed' in err && err.killed;
        if (killed)
          return reject(new DecoderTimedOut(`HEIC decoding timed out after ${timeout} ms`, err));
        const detail = `${path.basename(options.binary)} failed: ${String(stderr).trim() || err.message}`;
        reject(new Error(detail, { cause: err }));
      });
    });

  /** Decodes into `output` with the preferred plugin, then, if that fails, with libheif's. */
  const decodeInto = async (input: string, output: string, preferred: string | null) => {
    const args = (decoder: string | null) => [
      '--quiet',
      // Only JPEG has a quality; heif-dec takes it for any output.
      '-q',
      String(INTERMEDIATE_JPEG_QUALITY),
      ...(decoder ? ['-d', decoder] : []),
      input,
      output,
    ];
    try {
      await run(args(preferred));
    } catch (err) {
      // A hang is not retried: the same file would most likely hang again.
      if (!preferred || err instanceof HeifDecoderUnavailable || err instanceof DecoderTimedOut)
        throw err;
      await run(args(null));
    }
  };

  return {
    binary: options.binary,
    abilities,
    decode: (filePath, icc) =>
      limiter.run(async () => {
        const { hevcDecoder, intermediate } = await abilities();
        const output = path.join(
          options.tempDir,
          `${randomUUID()}.heic.${intermediate === 'tiff' ? 'tif' : 'jpg'}`,
        );
        try {
          await mkdir(options.tempDir, { recursive: true, mode: 0o700 });
          // Made here, 0600 and exclusively, so the decoder writes into a file only we can read.
          await (await open(output, 'wx', 0o600)).close();
        } catch (err) {
          // A full disk or unwritable temp dir says nothing of the photo either.
          throw new HeifDecoderUnavailable(err);
        }
        try {
          // Absolute, so a name can never be read as an option.
          await decodeInto(path.resolve(filePath), output, hevcDecoder);
          // heif-dec's JPEG carries the profile; its TIFF does not.
          if (intermediate === 'tiff' && icc) await attachIccProfile(output, icc);
          const image = await readFile(output);
          if (image.length === 0) throw new Error('the HEIC decoder wrote nothing');
          return image;
        } catch (err) {
          if (err instanceof HeifDecoderUnavailable) throw err;
          throw corruptImage(err);
        } finally {
          await removeFile(output);
        }
      }),
  };
}
