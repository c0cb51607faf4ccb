// What the server loads at start. The PDF renderer (pdfkit, fontkit), zxcvbn's dictionaries and
// the AWS SDK take ~0.7 s to load together, and a server on local disk that has made no report and
// set no password needs none of them: they are imported on first use. This test imports the app
// in a fresh process, records every module Node resolves, and fails when one of them comes back
// into the start.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const appFile = path.join(repoRoot, 'apps/server/src/app.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'sitelog-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module-resolution hook that appends each resolved URL to the file it is given. */
const hooks = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(file) { log = file; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}
`;

/** The URLs Node resolved while a fresh process imported the app module (and nothing else). */
async function resolvedAtImport(): Promise<string[]> {
  const log = path.join(dir, 'resolved.txt');
  const hooksFile = path.join(dir, 'hooks.mjs');
  const registerFile = path.join(dir, 'register.mjs');
  writeFileSync(log, '');
  writeFileSync(hooksFile, hooks);
  writeFileSync(
    registerFile,
    `import { register } from 'node:module';\n` +
      `register(${JSON.stringify(pathToFileURL(hooksFile).href)}, { data: ${JSON.stringify(log)} });\n`,
  );
  await promisify(execFile)(
    process.execPath,
    [
      '--import',
      pathToFileURL(registerFile).href,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(appFile).href)});`,
    ],
    { cwd: repoRoot, timeout: 60_000 },
  );
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe("the server's start", () => {
  it('loads no PDF renderer, password dictionary or S3 SDK until one is used', async () => {
    const resolved = await resolvedAtImport();
    const packages = (name: string) =>
      resolved.filter((url) => url.includes(`/node_modules/${name}/`));
    // The hook saw the app's own imports: the test can fail.
    expect(packages('fastify').length).toBeGreaterThan(0);
    expect(resolved.some((url) => url.endsWith('/apps/server/src/app.ts'))).toBe(true);
    expect(packages('pdfkit')).toEqual([]);
    // zxcvbn's core comes with the shared password policy; its dictionaries are the weight.
    expect(packages('@zxcvbn-ts/language-common')).toEqual([]);
    expect(packages('@zxcvbn-ts/language-en')).toEqual([]);
    expect(packages('@aws-sdk')).toEqual([]);
    expect(resolved.filter((url) => url.endsWith('/reports/report-pdf.ts'))).toEqual([]);
  }, 90_000);
});
