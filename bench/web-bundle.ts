/**
 * The web app's initial JavaScript: every script and modulepreload that the built index.html
 * loads before the first render, gzip-compressed one file at a time (as a server compresses
 * them). Run after `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const TARGET_KIB = 140;
const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const html = readFileSync(`${dist}index.html`, 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
if (files.length === 0)
  throw new Error('index.html names no JavaScript: run `npm run build` first.');

let total = 0;
for (const file of files) {
  const gzipped = gzipSync(readFileSync(`${dist}${file}`)).length;
  total += gzipped;
  console.log(`${(gzipped / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
}
const kib = total / 1024;
console.log(
  `${kib.toFixed(1).padStart(7)} KiB  initial JavaScript, gzip (${total} bytes; target ≤ ${TARGET_KIB} KiB)`,
);
