/**
 * The web app's files through real HTTP: the largest script of the first download (the React
 * chunk) asked for with `Accept-Encoding: br, gzip`, sent as the build's brotli file
 * (precompressed, the app as it is) against the same build with its `.br` and `.gz` files taken
 * away, which the server then compresses on every request (brotli 4, as before precompression).
 * Both apps run at once, pinned to the same core, the load on the other; interleaved rounds, the
 * median of the per-round ratios. Also the bytes each sends.
 *
 *   npm run build && npx tsx bench/web-files.ts
 *
 * Builds nothing. Part of the full `npm run bench`.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pinning, startAppProcess, startLoadWorker, type Server } from './http.js';
import { isMain, median } from './measure.js';
import { hasBuild, initialJs, webDist } from './web-bundle.js';

export interface WebFilesOptions {
  rounds: number;
  /** Seconds per app per round. */
  seconds: number;
}

export const fullWebFiles: WebFilesOptions = { rounds: 5, seconds: 3 };

export interface WebFilesResult {
  file: string;
  plainBytes: number;
  /** What each app sent per request (the body, as it went over the wire). */
  precompressedBytes: number;
  onTheFlyBytes: number;
  precompressed: number;
  onTheFly: number;
  /** Median of the per-round ratios, precompressed over compressed per request. */
  ratio: number;
  note: string;
}

const CONNECTIONS = 10;
const compressed = { 'accept-encoding': 'br, gzip' };

/** A copy of the build without its `.br` and `.gz` files. */
function plainCopy(dir: string): string {
  const copy = path.join(dir, 'dist-plain');
  cpSync(webDist, copy, { recursive: true });
  for (const entry of readdirSync(copy, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && /\.(br|gz)$/.test(entry.name))
      rmSync(path.join(entry.parentPath, entry.name));
  return copy;
}

/** The size of `url`'s body as sent, and its encoding (node's http leaves the body encoded). */
function sentBytes(url: string): Promise<{ bytes: number; encoding: string | null }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: compressed }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? null }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export async function measureWebFiles(
  options: WebFilesOptions,
  progress: (line: string) => void = () => {},
): Promise<WebFilesResult> {
  if (!hasBuild()) throw new Error('apps/web/dist has no build: run `npm run build` first.');
  const largest = initialJs()
    .files.map(({ file }) => ({ file, size: statSync(path.join(webDist, file)).size }))
    .sort((a, b) => b.size - a.size)[0];
  if (!largest) throw new Error('index.html names no JavaScript');
  const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-bench-web-'));
  const pins = pinning();
  const servers: Server[] = [];
  let load: ReturnType<typeof startLoadWorker> | undefined;
  try {
    progress('web files: starting the app twice (the build as it is, and without .br/.gz)…');
    const start = (name: string, dist: string) =>
      startAppProcess(
        pins.server,
        path.join(dir, `data-${name}`),
        path.join(dir, `${name}.log`),
        [],
        [],
        { WEB_DIST_DIR: dist },
      );
    const [pre, plain] = await Promise.all([start('pre', webDist), start('plain', plainCopy(dir))]);
    servers.push(pre, plain);
    const url = (server: Server) => `http://127.0.0.1:${server.port}/${largest.file}`;

    // The run is only meaningful if the first sends the build's file and the second compresses.
    const preSent = await sentBytes(url(pre));
    const plainSent = await sentBytes(url(plain));
    if (preSent.encoding !== 'br' || plainSent.encoding !== 'br')
      throw new Error(`expected br from both, got ${preSent.encoding} and ${plainSent.encoding}`);
    const brFile = statSync(path.join(webDist, `${largest.file}.br`)).size;
    if (preSent.bytes !== brFile)
      throw new Error(`sent ${preSent.bytes} bytes, the build's .br has ${brFile}`);

    load = startLoadWorker(pins.load);
    const worker = load;
    const run = async (server: Server) => {
      const result = await worker.run({
        url: url(server),
        connections: CONNECTIONS,
        duration: options.seconds,
        headers: compressed,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${url(server)}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result.reqPerSec;
    };
    // Warm both (JIT, the file system cache).
    await run(pre);
    await run(plain);
    const rates = { pre: [] as number[], plain: [] as number[], ratios: [] as number[] };
    for (let round = 0; round < options.rounds; round++) {
      // Alternate which goes first, so neither always follows the other.
      const order = round % 2 === 0 ? ([pre, plain] as const) : ([plain, pre] as const);
      const [a, b] = [await run(order[0]), await run(order[1])];
      const [p, q] = order[0] === pre ? [a, b] : [b, a];
      rates.pre.push(p);
      rates.plain.push(q);
      rates.ratios.push(p / q);
      progress(`web files: round ${round + 1}/${options.rounds} done`);
    }
    return {
      file: largest.file,
      plainBytes: largest.size,
      precompressedBytes: preSent.bytes,
      onTheFlyBytes: plainSent.bytes,
      precompressed: median(rates.pre),
      onTheFly: median(rates.plain),
      ratio: median(rates.ratios),
      note:
        `web files: ${largest.file} (${(largest.size / 1024).toFixed(1)} KiB) with Accept-Encoding: br, gzip, ` +
        `${CONNECTIONS} connections, ${options.rounds} interleaved rounds of ${options.seconds} s per app; ` +
        `the build's .br (brotli 11) sends ${preSent.bytes.toLocaleString('en-US')} B, ` +
        `compressing per request (brotli 4) ${plainSent.bytes.toLocaleString('en-US')} B`,
    };
  } finally {
    load?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const r = await measureWebFiles(fullWebFiles, (line) => console.error(line));
  console.log(r.note);
  console.log(
    `precompressed ${Math.round(r.precompressed)} req/s; compressed per request ` +
      `${Math.round(r.onTheFly)} req/s; median ratio ${r.ratio.toFixed(1)}×`,
  );
}
