// Test-only: waiting for a report's PDF and reading a PDF back with Debian's poppler-utils
// (pdfinfo, pdftotext), as a reader of the report would see it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ReportDetail } from '@sitelog/shared';
import { api, type TestContext } from './helpers.js';

const run = promisify(execFile);

/**
 * Polls `GET /api/report/{id}` (as the web does, faster) until the report is `ready` or
 * `failed`; throws after `timeoutMs`.
 */
export async function waitForReport(
  ctx: Pick<TestContext, 'app'>,
  token: string,
  id: number,
  timeoutMs = 20_000,
): Promise<ReportDetail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await api(ctx, { method: 'GET', url: `/api/report/${id}`, token });
    if (res.statusCode !== 200) throw new Error(`report ${id}: ${res.statusCode} ${res.body}`);
    const report = res.json<ReportDetail>();
    if (report.status === 'ready' || report.status === 'failed') return report;
    if (Date.now() > until)
      throw new Error(`report ${id} still ${report.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** Runs `fn` on the PDF written to a temp file. */
async function withPdfFile<T>(pdf: Buffer, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sitelog-pdf-'));
  const file = path.join(dir, 'report.pdf');
  try {
    await writeFile(file, pdf);
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The page count `pdfinfo` reads. */
export function pdfPageCount(pdf: Buffer): Promise<number> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    const pages = /^Pages:\s+(\d+)$/m.exec(stdout)?.[1];
    if (!pages) throw new Error(`pdfinfo gave no page count:\n${stdout}`);
    return Number(pages);
  });
}

/** The text of each page, as `pdftotext` extracts it (reading order, not layout). */
export function pdfPages(pdf: Buffer): Promise<string[]> {
  return withPdfFile(pdf, async (file) => {
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    // pdftotext ends every page with a form feed.
    return stdout.split('\f').slice(0, -1);
  });
}
