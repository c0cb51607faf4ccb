// The report PDF renderer alone (no database): each PDF is written to a temp file and read back
// with poppler (`pdfinfo` for the page count, `pdftotext -layout` for the text of each page).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoJpeg, quadrantImage } from '../../../test/images.js';
import {
  formatCaptured,
  formatInstant,
  formatRange,
  indexRowsPerPage,
  PENDING_OUTPUT_LIMIT,
  renderReportPdf,
  withoutLayoutTables,
  type ReportPdfCover,
  type ReportPdfLayout,
  type ReportPdfPhoto,
} from './report-pdf.js';

const run = promisify(execFile);
let dir: string;
let seq = 0;
let landscape: Buffer;
let portrait: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sitelog-report-pdf-'));
  landscape = await quadrantImage(160, 120).jpeg().toBuffer();
  portrait = await quadrantImage(90, 120).jpeg().toBuffer();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cover = (overrides: Partial<ReportPdfCover> = {}): ReportPdfCover => ({
  reportId: 42,
  title: 'Level 3 slab pour',
  typeLabel: 'Daily site report',
  projectName: 'Riverside Tower',
  projectLocation: 'Munich, Germany',
  authorName: 'Anna Kowalska',
  from: '2026-05-01',
  to: '2026-05-03',
  photoCount: 5,
  teamName: 'Acme Construction GmbH',
  intro: 'The pour started at 7:00 and finished at noon.',
  createdAt: '2026-05-03T15:00:00.000Z',
  timeZone: 'Europe/Berlin',
  ...overrides,
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Photo `i` (1-based): every second one portrait; the fields vary so each branch is drawn. Bytes
 * after the JPEG's end marker (which decoders ignore) make each photo's hash its own.
 */
function photo(i: number, overrides: Partial<ReportPdfPhoto> = {}): ReportPdfPhoto {
  const jpeg = Buffer.concat([i % 2 ? landscape : portrait, Buffer.from(`photo ${i}`)]);
  return {
    position: i,
    name: `IMG_${1000 + i}.jpg`,
    caption: `Rebar cage at grid C${i}`,
    authorName: `Author ${i}`,
    capturedAt: `2026-05-0${(i % 3) + 1}T08:${10 + i}:30.000Z`,
    uploadedAt: `2026-05-03T09:${10 + i}:00.000Z`,
    latitude: 48.1 + i / 1000,
    longitude: 11.5 + i / 1000,
    placeName: `Place ${i}`,
    camera: 'Canon EOS 40D',
    sha256: sha(jpeg),
    jpeg,
    width: i % 2 ? 160 : 90,
    height: 120,
    ...overrides,
  };
}

async function* each(photos: ReportPdfPhoto[]): AsyncGenerator<ReportPdfPhoto> {
  for (const p of photos) yield p;
}

interface Rendered {
  file: string;
  pages: number;
}

async function render(
  options: { cover?: ReportPdfCover; layout?: ReportPdfLayout; photos: ReportPdfPhoto[] },
  onPhoto?: (done: number) => void,
): Promise<Rendered> {
  const file = path.join(dir, `report-${++seq}.pdf`);
  const result = await renderReportPdf({
    cover: options.cover ?? cover({ photoCount: options.photos.length }),
    layout: options.layout ?? 2,
    photos: each(options.photos),
    out: createWriteStream(file),
    ...(onPhoto ? { onPhoto } : {}),
  });
  return { file, pages: result.pages };
}

async function pdfPages(file: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [file]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/** The words of page `page` with their boxes (`pdftotext -bbox`), in reading order. */
async function pdfWords(
  file: string,
  page: number,
): Promise<{ text: string; xMin: number; xMax: number; yMin: number }[]> {
  const { stdout } = await run('pdftotext', [
    '-bbox',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    '-',
  ]);
  return [
    ...stdout.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g,
    ),
  ].map(([, xMin, yMin, xMax, text]) => ({
    text: text!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
    xMin: Number(xMin),
    xMax: Number(xMax),
    yMin: Number(yMin),
  }));
}

/** The text of pages `first`–`last` (all when not given), laid out as on the page. */
async function pdfText(file: string, first?: number, last = first): Promise<string> {
  const range = first === undefined ? [] : ['-f', String(first), '-l', String(last)];
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', ...range, file, '-']);
  return stdout;
}

describe('renderReportPdf', () => {
  it.each([1, 2, 4] as const)(
    'layout %i: a cover page, the photos as the layout puts them, the index; "Page N of M"',
    async (layout) => {
      const photos = [1, 2, 3, 4, 5].map((i) => photo(i));
      const { file, pages } = await render({ layout, photos });
      // A short intro keeps the cover to one page; five photos fit one index page.
      const expected = 1 + Math.ceil(photos.length / layout) + 1;
      expect(pages).toBe(expected);
      expect(await pdfPages(file)).toBe(expected);
      for (let page = 1; page <= expected; page++) {
        const text = await pdfText(file, page);
        expect(text).toContain(`Page ${page} of ${expected}`);
        expect(text).toContain('Report #42 · Level 3 slab pour');
      }
      // Each photo is on the page the layout puts it on.
      for (const p of photos) {
        const text = await pdfText(file, 1 + Math.ceil(p.position / layout));
        expect(text).toMatch(new RegExp(`#${p.position}\\s+${p.name}`));
        expect(text).toContain(p.caption);
      }
      expect(await pdfText(file, expected)).toContain('Photo index');
    },
  );

  it('prints the cover: team, type, title, project and location, author, range, count, intro', async () => {
    const { file } = await render({ photos: [1, 2, 3, 4, 5].map((i) => photo(i)) });
    const text = await pdfText(file, 1);
    for (const expected of [
      'Acme Construction GmbH',
      'Daily site report',
      'Level 3 slab pour',
      'Riverside Tower',
      'Munich, Germany',
      'Anna Kowalska',
      '1 May 2026 – 3 May 2026',
      '5 photos',
      '3 May 2026, 17:00:00 (Europe/Berlin)',
      '#42',
      'The pour started at 7:00 and finished at noon.',
    ])
      expect(text).toContain(expected);
  });

  it('prints under each photo its caption, author, times, GPS with place, camera and SHA-256', async () => {
    const photos = [
      photo(1),
      photo(2, { capturedAt: '2026-05-02T07:08:09', placeName: null }),
      photo(3, { capturedAt: null, latitude: null, longitude: null, camera: null }),
      photo(4, { capturedAt: '2026-05-01T06:00:00+02:00' }),
    ];
    const { file } = await render({ layout: 4, photos, cover: cover({ photoCount: 4 }) });
    const page = await pdfText(file, 2);
    for (const p of photos) {
      expect(page).toContain(p.caption);
      expect(page).toContain(p.authorName);
      // The full hash on one line, after its label, under the photo; and again in the index.
      expect(page).toMatch(new RegExp(`SHA-256 ${p.sha256}`));
    }
    // 08:11:30 UTC is 10:11:30 in Berlin (summer time); the upload time likewise.
    expect(page).toContain('2 May 2026, 10:11:30 (Europe/Berlin)');
    expect(page).toContain('3 May 2026, 11:11:00 (Europe/Berlin)');
    // A camera time without a zone is printed as the camera wrote it, and said to be so.
    expect(page).toContain('2 May 2026, 07:08:09 (camera time)');
    expect(page).toContain('not recorded');
    // An offset is an instant too: 06:00 at +02:00 is 06:00 in Berlin.
    expect(page).toContain('1 May 2026, 06:00:00 (Europe/Berlin)');
    expect(page).toContain('48.10100, 11.50100 · near Place 1');
    expect(page).toMatch(/48\.10200, 11\.50200(?! · near)/);
    expect(page).toContain('no location');
    expect(page).toContain('Canon EOS 40D');

    const index = await pdfText(file, 3);
    for (const p of photos) {
      expect(index).toMatch(new RegExp(`${p.position}\\s+${p.name}\\s+.*${p.sha256}`));
    }
    expect(index).toMatch(/2 May 2026, 07:08:09 \*/);
  });

  it('keeps Latin, Cyrillic and Greek text intact', async () => {
    const title = 'Überbau – Ŝtupo – Кран – Ελλάδα';
    const photos = [
      photo(1, {
        // q̇ has no composed form: its dot is a combining mark placed off the baseline.
        caption: 'Façade: Schäden am Überbau, łączenie, Кран №2, Γέφυρα, q\u0307',
        // Decomposed, as macOS writes file names: printed as the composed letters.
        name: 'Z\u0307uraw.jpg',
      }),
    ];
    const { file } = await render({
      photos,
      cover: cover({
        photoCount: 1,
        title,
        projectName: 'Мост через Неву',
        authorName: 'Jiří Dvořák',
      }),
    });
    const text = await pdfText(file);
    expect(text).toContain(title);
    expect(text).toContain('Мост через Неву');
    expect(text).toContain('Jiří Dvořák');
    expect(text).toContain('Façade: Schäden am Überbau, łączenie, Кран №2, Γέφυρα, q\u0307');
    expect(text).toContain('Żuraw.jpg');
  });

  it('lays Latin-1 text out as pdfkit does, kerning included; fingerprints in Courier', async () => {
    // Kerned pairs (AV, AW, Te, Yo, P., V., r.) and Latin-1 letters, on one line.
    const caption = 'AVAWAY Tea, Yo-yo P.V. Fåvang Ærø Größe «1.074,50» ¿Qué? Wölfe r. T.';
    const { file } = await render({
      layout: 1,
      photos: [photo(1, { caption })],
      cover: cover({ photoCount: 1 }),
    });
    // The same line drawn by pdfkit itself, in the same font (the report's caption: 10 pt).
    const reference = path.join(dir, 'reference.pdf');
    const doc = new PDFDocument({ size: 'A4', margin: 0 });
    const written = new Promise<void>((resolve) =>
      doc.pipe(createWriteStream(reference)).on('finish', () => resolve()),
    );
    const font = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    doc.font(withoutLayoutTables(readFileSync(font))).fontSize(10);
    doc.text(caption, 50, 50, { lineBreak: false });
    doc.end();
    await written;

    const line = (words: { text: string; xMin: number; xMax: number; yMin: number }[]) => {
      const first = words.find((w) => w.text === 'AVAWAY')!;
      const on = words.filter((w) => Math.abs(w.yMin - first.yMin) < 0.5);
      return on.map((w) => ({ text: w.text, from: w.xMin - first.xMin, to: w.xMax - first.xMin }));
    };
    const drawn = line(await pdfWords(file, 2));
    const expected = line(await pdfWords(reference, 1));
    expect(drawn.map((w) => w.text)).toEqual(caption.split(' '));
    expect(drawn.map((w) => w.text)).toEqual(expected.map((w) => w.text));
    drawn.forEach((w, i) => {
      expect(w.from).toBeCloseTo(expected[i]!.from, 1);
      expect(w.to).toBeCloseTo(expected[i]!.to, 1);
    });

    const { stdout: fonts } = await run('pdffonts', [file]);
    expect(fonts).toMatch(/DejaVuSans\s.*yes\s+yes\s+yes/);
    expect(fonts).toMatch(/^Courier\s+Type 1/m);
  });

  it('continues a long intro on further pages and cuts long captions with an ellipsis', async () => {
    const intro = Array.from(
      { length: 40 },
      (_, i) => `Paragraph ${i + 1}. ${'The formwork was checked before the pour. '.repeat(8)}`,
    ).join('\n\n');
    const long = `${'A very long caption about the crack in the slab. '.repeat(30)}END-OF-CAPTION`;
    const photos = [1, 2, 3, 4, 5, 6].map((i) =>
      photo(i, { caption: long, name: `${'N'.repeat(300)}` }),
    );
    const { file, pages } = await render({
      layout: 4,
      photos,
      cover: cover({ photoCount: photos.length, intro, title: 'T'.repeat(120) }),
    });
    expect(await pdfPages(file)).toBe(pages);
    const all = await pdfText(file);
    expect(all).toContain('Paragraph 1.');
    expect(all).toContain('Paragraph 40.');
    // The intro takes more than the cover page; the photos then start on a page of their own.
    const coverPages = pages - Math.ceil(photos.length / 4) - 1;
    expect(coverPages).toBeGreaterThan(1);
    expect(await pdfText(file, coverPages)).toContain('Paragraph 40.');
    expect(await pdfText(file, pages)).toContain(`Page ${pages} of ${pages}`);
    const photoPage = await pdfText(file, coverPages + 1);
    expect(photoPage).toContain('…');
    expect(photoPage).not.toContain('END-OF-CAPTION');
    // The lines under the caption are still all there.
    for (const p of photos.slice(0, 4)) {
      expect(photoPage).toContain(p.authorName);
      expect(photoPage).toMatch(new RegExp(`SHA-256 ${p.sha256}`));
    }
  });

  it('continues the photo index over pages', async () => {
    const tiny = await quadrantImage(8, 6).jpeg().toBuffer();
    const count = indexRowsPerPage + 15;
    const photos = Array.from({ length: count }, (_, i) =>
      photo(i + 1, { jpeg: tiny, sha256: sha(Buffer.from(`photo ${i + 1}`)) }),
    );
    const { file, pages } = await render({
      layout: 4,
      photos,
      cover: cover({ photoCount: count }),
    });
    const photoPages = Math.ceil(count / 4);
    expect(pages).toBe(1 + photoPages + Math.ceil(count / indexRowsPerPage));
    const index = await pdfText(file, 2 + photoPages, pages);
    expect(index).toContain('Photo index (continued)');
    for (const p of photos) expect(index).toContain(p.sha256);
  });

  it('awaits onPhoto after each photo drawn', async () => {
    const calls: number[] = [];
    await render(
      { photos: [1, 2, 3].map((i) => photo(i)), cover: cover({ photoCount: 3 }) },
      (done) => {
        calls.push(done);
      },
    );
    expect(calls).toEqual([1, 2, 3]);
  });

  it('rejects when the photos fail midway, when they are not what the cover counts, or not JPEGs', async () => {
    async function* failing() {
      yield photo(1);
      yield photo(2);
      throw new Error('storage read failed');
    }
    const out = createWriteStream(path.join(dir, 'failing.pdf'));
    await expect(
      renderReportPdf({ cover: cover(), layout: 2, photos: failing(), out }),
    ).rejects.toThrow('storage read failed');
    expect(out.destroyed).toBe(true);

    await expect(render({ photos: [photo(1)], cover: cover({ photoCount: 2 }) })).rejects.toThrow(
      /has 2 photos but only 1/,
    );
    await expect(
      render({ photos: [photo(1), photo(2)], cover: cover({ photoCount: 1 }) }),
    ).rejects.toThrow(/has 1 photo but more/);
    await expect(
      render({
        photos: [photo(1, { jpeg: Buffer.from('not a jpeg at all') })],
        cover: cover({ photoCount: 1 }),
      }),
    ).rejects.toThrow(/Photo #1 \(IMG_1001\.jpg\) has no JPEG display image/);
    await expect(
      render({ photos: [photo(1)], cover: cover({ photoCount: 1 }) }, () => {
        throw new Error('progress write failed');
      }),
    ).rejects.toThrow('progress write failed');
  });

  it('rejects with the error of the stream it writes to', async () => {
    let chunks = 0;
    const out = new Writable({
      write(_chunk, _encoding, callback) {
        callback(++chunks > 3 ? new Error('disk full') : null);
      },
    });
    await expect(
      renderReportPdf({
        cover: cover({ photoCount: 4 }),
        layout: 1,
        photos: each([1, 2, 3, 4].map((i) => photo(i))),
        out,
      }),
    ).rejects.toThrow('disk full');
  });

  it('waits for a slow stream: never further ahead of it than its limit and a photo', async () => {
    const big = await photoJpeg(400, 300, 95);
    const photoCount = Math.ceil((3 * PENDING_OUTPUT_LIMIT) / big.length);
    let yielded = 0;
    let written = 0;
    let mostAhead = 0;
    async function* photos() {
      for (let i = 1; i <= photoCount; i++) {
        mostAhead = Math.max(mostAhead, yielded - written);
        yielded += big.length;
        yield photo(i, { jpeg: Buffer.from(big), width: 400, height: 300 });
      }
    }
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        const take = () => {
          written += chunk.length;
          callback();
        };
        // Slow for the images, quick for pdfkit's many small pieces.
        if (chunk.length > 10_000) setTimeout(take, 5);
        else setImmediate(take);
      },
    });
    await renderReportPdf({ cover: cover({ photoCount }), layout: 1, photos: photos(), out });
    expect(written).toBeGreaterThan(photoCount * big.length);
    expect(mostAhead).toBeLessThanOrEqual(PENDING_OUTPUT_LIMIT + 2 * big.length);
  });

  it('keeps no photo bytes once the photo is drawn', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const big = await photoJpeg(300, 200);
    const refs: WeakRef<Buffer>[] = [];
    async function* photos() {
      for (let i = 1; i <= 6; i++) {
        const jpeg = Buffer.from(big);
        refs.push(new WeakRef(jpeg));
        yield photo(i, { jpeg, width: 300, height: 200 });
      }
    }
    const stillHeld: number[] = [];
    await renderReportPdf({
      cover: cover({ photoCount: 6 }),
      layout: 2,
      photos: photos(),
      out: createWriteStream(path.join(dir, 'gc.pdf')),
      onPhoto: async (done) => {
        if (done < 4) return;
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        // Photos before the one just drawn are gone.
        stillHeld.push(
          ...refs.slice(0, done - 1).flatMap((ref, i) => (ref.deref() ? [i + 1] : [])),
        );
      },
    });
    expect(stillHeld).toEqual([]);
  });
});

describe('report PDF fonts', () => {
  it('leaves out the OpenType layout tables and keeps the rest byte for byte', () => {
    const file = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
    const font = readFileSync(file);
    const tables = (bytes: Buffer) =>
      new Map(
        Array.from({ length: bytes.readUInt16BE(4) }, (_, i) => {
          const at = 12 + 16 * i;
          const offset = bytes.readUInt32BE(at + 8);
          const data = bytes.subarray(offset, offset + bytes.readUInt32BE(at + 12));
          return [bytes.toString('latin1', at, at + 4), sha(data)] as const;
        }),
      );
    const before = tables(font);
    const after = tables(withoutLayoutTables(font));
    expect([...before.keys()]).toEqual(expect.arrayContaining(['GSUB', 'GPOS', 'GDEF', 'kern']));
    expect([...after.keys()].sort()).toEqual(
      [...before.keys()].filter((tag) => !['GSUB', 'GPOS', 'GDEF'].includes(tag)).sort(),
    );
    for (const [tag, hash] of after) expect(hash, tag).toBe(before.get(tag));
  });
});

describe('report PDF text', () => {
  it('writes one day as one date and a range with a dash', () => {
    expect(formatRange('2026-05-01', '2026-05-01')).toBe('1 May 2026');
    expect(formatRange('2026-05-01', '2026-05-03')).toBe('1 May 2026 – 3 May 2026');
  });

  it('writes instants in the report zone and camera wall times as they are', () => {
    expect(formatCaptured('2026-01-15T12:00:00.000Z', 'America/New_York').text).toBe(
      '15 Jan 2026, 07:00:00 (America/New_York)',
    );
    expect(formatCaptured('2026-01-15T12:00:00', 'America/New_York').text).toBe(
      '15 Jan 2026, 12:00:00 (camera time)',
    );
    expect(formatCaptured(null, 'UTC').text).toBe('not recorded');
  });

  it('writes instants as ICU does, also around each zone offset change', () => {
    const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
    const formats = new Map<string, Intl.DateTimeFormat>();
    const icu = (ms: number, timeZone: string) => {
      let format = formats.get(timeZone);
      if (!format) {
        format = new Intl.DateTimeFormat('en-GB', {
          timeZone,
          ...{ year: 'numeric', month: '2-digit', day: '2-digit' },
          ...{ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
        } as const);
        formats.set(timeZone, format);
      }
      const p = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
      return `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute}:${p.second} (${timeZone})`;
    };
    const HOUR = 3_600_000;
    // Summer time, half-hour and 45-minute offsets, a 30-minute change (Lord Howe), the far side
    // of the date line.
    const zones = [
      'Europe/Berlin',
      'America/St_Johns',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
    ];
    const wrong: string[] = [];
    for (const timeZone of zones) {
      const zone = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'longOffset' });
      const offset = (ms: number) =>
        zone.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value;
      let changes = 0;
      for (let at = Date.UTC(2025, 0, 1); at < Date.UTC(2026, 0, 1); at += 12 * HOUR) {
        // A time in every twelve hours of the year; every 3 min 7 s around a change.
        const instants = [at + 7 * 60_000 + 11_000];
        if (offset(at) !== offset(at + 12 * HOUR)) {
          changes++;
          for (let ms = at - HOUR; ms < at + 13 * HOUR; ms += 187_000) instants.push(ms);
        }
        for (const ms of instants) {
          const iso = new Date(ms).toISOString();
          if (formatInstant(iso, timeZone) !== icu(ms, timeZone)) wrong.push(`${timeZone} ${iso}`);
        }
      }
      if (timeZone !== 'Asia/Kathmandu') expect(changes, timeZone).toBe(2);
    }
    expect(wrong).toEqual([]);
  });
});
