import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestContext, type TestContext } from '../../test/helpers.js';

let ctx: TestContext;
let dist: string;

/** A script with the build's `.br` (brotli 11) and `.gz` (gzip 9) beside it, as vite makes them. */
const precompressedScript = Array.from(
  { length: 600 },
  (_, i) => `export const label${i} = 'Site diary entry ${i}';`,
).join('\n');
const brotli = (text: string, quality: number) =>
  brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } });
const precompressedBr = brotli(precompressedScript, 11);
const precompressedGz = gzipSync(precompressedScript, { level: 9 });
const pageHtml = `<!doctype html><title>Sitelog</title>${'<meta name="x">'.repeat(200)}`;

/** GET `url` with the given Accept-Encoding, or without the header. */
const getAccepting = (url: string, acceptEncoding?: string) =>
  api(ctx, {
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'sitelog-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), pageHtml);
  writeFileSync(path.join(dist, 'index.html.br'), brotli(pageHtml, 11));
  writeFileSync(path.join(dist, 'assets', 'pre-abc123.js'), precompressedScript);
  writeFileSync(path.join(dist, 'assets', 'pre-abc123.js.br'), precompressedBr);
  writeFileSync(path.join(dist, 'assets', 'pre-abc123.js.gz'), precompressedGz);
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Sitelog"}');
  // A script large enough to be worth compressing.
  writeFileSync(
    path.join(dist, 'assets', 'big-abc123.js'),
    Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join('\n'),
  );
  ctx = await createTestContext({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers client routes with index.html and strict headers', async () => {
    const res = await api(ctx, { method: 'GET', url: '/project/12' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<title>Sitelog</title>');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves hashed assets as immutable', async () => {
    const res = await api(ctx, { method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the app scripts compressed when the browser accepts it', async () => {
    const res = await getAccepting('/assets/big-abc123.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('export const value399');
  });

  it("sends the build's own .br and .gz of a file as they are, and the file to who takes neither", async () => {
    // What the server would make on the fly (brotli 4) differs, so a match is the build's file.
    expect(brotli(precompressedScript, 4).equals(precompressedBr)).toBe(false);
    const get = (acceptEncoding?: string) => getAccepting('/assets/pre-abc123.js', acceptEncoding);

    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(precompressedBr)).toBe(true);
    expect(br.headers['content-length']).toBe(String(precompressedBr.length));
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(precompressedGz)).toBe(true);
    expect(gz.headers['content-type']).toMatch(/^(text|application)\/javascript/);

    for (const plain of [await get(), await get('identity')]) {
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(precompressedScript);
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it("sends the build's .br of the page for a client route", async () => {
    const page = await getAccepting('/project/12', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(pageHtml);
  });

  it('serves the service worker as a script that is revalidated on every update check', async () => {
    const res = await api(ctx, { method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    // A cached worker script would keep an old build installed.
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('addEventListener');
  });

  it('serves the web app manifest with its own type', async () => {
    const res = await api(ctx, { method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('lets the page register its service worker and read its manifest', async () => {
    const res = await api(ctx, { method: 'GET', url: '/' });
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('answers a missing asset with 404, not the page', async () => {
    const res = await api(ctx, { method: 'GET', url: '/assets/app-old999.js' });
    expect(res.statusCode).toBe(404);
    expect((await api(ctx, { method: 'GET', url: '/favicon-missing.png' })).statusCode).toBe(404);
  });

  it('keeps unknown API paths JSON even when encoded', async () => {
    const res = await api(ctx, { method: 'GET', url: '/%61pi/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

describe('a browser that leaves while a script is coming', () => {
  it('is no error in the log (the line is written at debug)', async () => {
    const lines: { level: number; err?: { message?: string } }[] = [];
    const destination = {
      write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]),
    };
    // 12 MB that compress slowly (hex text): still streaming when the client goes. Written
    // before the server starts, which lists the app's files once.
    writeFileSync(
      path.join(dist, 'assets', 'huge-abc123.js'),
      randomBytes(6 << 20).toString('hex'),
    );
    const leaving = await createTestContext(
      { WEB_DIST_DIR: dist, LOG_LEVEL: 'debug' },
      { logDestination: destination },
    );
    try {
      const { port } = new URL(await leaving.app.listen({ port: 0, host: '127.0.0.1' }));
      const encoding = await new Promise<string | undefined>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/assets/huge-abc123.js',
            headers: { 'accept-encoding': 'br' },
          },
          (res) => {
            // The first bytes come, then the browser is gone.
            res.once('data', () => {
              req.destroy();
              resolve(res.headers['content-encoding']);
            });
          },
        );
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
        req.end();
      });
      expect(encoding).toBe('br');
      const gone = () => lines.filter((line) => line.err?.message === 'premature close');
      await expect.poll(() => gone().length, { timeout: 10_000 }).toBe(1);
      expect(gone()[0]?.level).toBe(20);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await leaving.close();
    }
  });
});
