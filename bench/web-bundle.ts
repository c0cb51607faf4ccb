/**
 * The web app's initial JavaScript: every script and modulepreload that the built index.html
 * loads before the first render, gzip-compressed one file at a time (as a server compresses
 * them). Run after `npm run build`; bench/run.ts calls `initialJs` for its row.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { isMain } from './measure.js';

export const TARGET_KIB = 140;
export const webDist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));

/** Whether there is a build to measure. */
export const hasBuild = (dist = webDist) => existsSync(`${dist}index.html`);

/** Each initial file with its gzip size, and the total in bytes. */
export function initialJs(dist = webDist): {
  files: { file: string; gzipBytes: number }[];
  totalBytes: number;
} {
  const html = readFileSync(`${dist}index.html`, 'utf8');
  const names = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map(
    (match) => match[1]!,
  );
  if (names.length === 0)
    throw new Error('index.html names no JavaScript: run `npm run build` first.');
  const files = names.map((file) => ({
    file,
    gzipBytes: gzipSync(readFileSync(`${dist}${file}`)).length,
  }));
  return { files, totalBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
}

if (isMain(import.meta.url)) {
  const { files, totalBytes } = initialJs();
  for (const { file, gzipBytes } of files)
    console.log(`${(gzipBytes / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
  console.log(
    `${(totalBytes / 1024).toFixed(1).padStart(7)} KiB  initial JavaScript, gzip (${totalBytes} bytes; target ≤ ${TARGET_KIB} KiB)`,
  );
}
