// The photo report's PDF (issue 16), drawn with pdfkit and streamed: the cover, the photo pages
// (1, 2 or 4 photos a page, each with who took it, when, where and the SHA-256 of its stored
// original), and the photo index. Pure: it reads nothing but its arguments and writes nothing
// but `out`, so the reports service decides where the photos come from and where the PDF goes.
//
// Memory: one photo's bytes at a time. pdfkit embeds a JPEG as it is (DCTDecode: no decoding, no
// re-encoding), writes the image object out at once and drops its reference (its image registry
// caches by file path only, never a Buffer), and each page is written out as the next one starts
// (only the cover's pages wait, until their count is known for "Page N of M"). What stays for the
// end is the index's few strings per photo. When more than PENDING_OUTPUT_LIMIT waits for `out`
// (backpressure), the drawing waits before it asks for the next photo.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pipeline } from 'node:stream/promises';
import PDFDocument from 'pdfkit';

/** What the cover says; `from`/`to` are days (YYYY-MM-DD), `createdAt` an ISO instant. */
export interface ReportPdfCover {
  reportId: number;
  title: string;
  typeLabel: string;
  projectName: string;
  projectLocation: string;
  authorName: string;
  from: string;
  to: string;
  /** Photos the report holds: the iterator must give exactly this many (see renderReportPdf). */
  photoCount: number;
  teamName: string;
  intro: string;
  createdAt: string;
  /** IANA zone the capture, upload and creation times are written in. */
  timeZone: string;
}

/** One photo as drawn: its display image (JPEG) and what is printed under it. */
export interface ReportPdfPhoto {
  position: number;
  name: string;
  caption: string;
  authorName: string;
  /** `Upload.capturedAt`: an instant ('…Z' or with an offset), or camera wall time with no zone. */
  capturedAt: string | null;
  uploadedAt: string;
  latitude: number | null;
  longitude: number | null;
  placeName: string | null;
  camera: string | null;
  /** Hex SHA-256 of the stored original. */
  sha256: string;
  /** The display image (uploads.formatted_key), embedded as it is. */
  jpeg: Buffer;
  width: number;
  height: number;
}

export type ReportPdfLayout = 1 | 2 | 4;

// ---- fonts ---------------------------------------------------------------------------------

const FONT_FILES = {
  sans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;

let fontBytes: Record<FontName, Buffer> | undefined;

/** OpenType layout tables left out of the fonts (see `withoutLayoutTables`). */
const LAYOUT_TABLES = new Set(['GSUB', 'GPOS', 'GDEF']);

/**
 * A TrueType font without its OpenType layout tables (GSUB, GPOS, GDEF). With them, fontkit
 * shapes every new word through DejaVu's many lookups: 0.1–0.7 ms a word, and a photo's hash,
 * coordinates, times and name are new words on every photo (≈ 1.5 ms a photo, more than
 * embedding its JPEG). Without them fontkit maps characters to glyphs directly, kerns from the
 * font's `kern` table and places combining marks by their Unicode properties. What is lost:
 * ligatures (fi, fl) and contextual forms, which Latin, Greek and Cyrillic text does without
 * (text is NFC-normalised, so accented letters are single glyphs; pdfkit lays out no
 * right-to-left scripts either way). The embedded subset never held these tables.
 */
export function withoutLayoutTables(font: Buffer): Buffer {
  const count = font.readUInt16BE(4);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 12 + 16 * i;
    return {
      tag: font.toString('latin1', at, at + 4),
      checksum: font.readUInt32BE(at + 4),
      offset: font.readUInt32BE(at + 8),
      length: font.readUInt32BE(at + 12),
    };
  }).filter((table) => !LAYOUT_TABLES.has(table.tag));
  const kept = tables.length;
  const entrySelector = Math.floor(Math.log2(kept));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + 16 * kept);
  font.copy(header, 0, 0, 4); // sfnt version
  header.writeUInt16BE(kept, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(kept * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const at = 12 + 16 * i;
    header.write(table.tag, at, 'latin1');
    header.writeUInt32BE(table.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(table.length, at + 12);
    const padded = Math.ceil(table.length / 4) * 4;
    const data = Buffer.alloc(padded);
    font.copy(data, 0, table.offset, table.offset + table.length);
    parts.push(data);
    offset += padded;
  });
  return Buffer.concat(parts);
}

/**
 * DejaVu Sans (Latin, Greek, Cyrillic and more) and its mono, read once per process; each
 * document parses and subsets them itself (a PDF embeds only the glyphs it uses).
 */
function fonts(): Record<FontName, Buffer> {
  if (!fontBytes) {
    const require = createRequire(import.meta.url);
    const read = (file: string) => withoutLayoutTables(readFileSync(require.resolve(file)));
    fontBytes = {
      sans: read(FONT_FILES.sans),
      bold: read(FONT_FILES.bold),
      mono: read(FONT_FILES.mono),
    };
  }
  return fontBytes;
}

// ---- page geometry (PDF points, A4 portrait) -------------------------------------------------

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = { top: 40, left: 36, right: 36, bottom: 64 };
const CONTENT = {
  x: MARGIN.left,
  y: MARGIN.top,
  width: PAGE.width - MARGIN.left - MARGIN.right,
  height: PAGE.height - MARGIN.top - MARGIN.bottom,
};
/** The footer's rule and text, inside the bottom margin. */
const FOOTER_RULE_Y = PAGE.height - 48;
const FOOTER_TEXT_Y = PAGE.height - 42;

const COLOURS = {
  ink: '#1f2933',
  muted: '#5f6b7a',
  accent: '#1565c0',
  rule: '#c9d1da',
  frame: '#d5dbe1',
  zebra: '#f2f4f7',
};

type Doc = PDFKit.PDFDocument;

/** pdfkit's `openImage` (documented, left out of its types): the image, read once, not cached. */
interface OpenedImage {
  width: number;
  height: number;
}

/** Drawing text in boxes: fonts by name, one line or a few, cut with an ellipsis. */
class Pen {
  constructor(readonly doc: Doc) {}
  use(font: FontName, size: number, colour = COLOURS.ink): this {
    this.doc.font(font).fontSize(size).fillColor(colour);
    return this;
  }
  /** Height of one line in the current font, as pdfkit moves down a line. */
  lineHeight(): number {
    return this.doc.currentLineHeight(true);
  }
  /**
   * `text` in a box of at most `lines` lines at (x, y), cut with an ellipsis when longer; never
   * breaks the page. Returns the height the box takes.
   */
  box(text: string, x: number, y: number, width: number, lines = 1, align?: 'right'): number {
    const height = this.lineHeight() * lines;
    if (!text) return height;
    const { doc } = this;
    if (!text.includes('\n')) {
      // One line that fits (nearly every one), or cut to one: drawn as it is, without pdfkit's
      // line wrapper (the wrapper's line breaking is most of the time a page of text takes).
      let line = text;
      let textWidth = doc.widthOfString(line);
      if (textWidth > width && lines === 1) {
        line = this.cut(text, width);
        textWidth = doc.widthOfString(line);
      }
      if (textWidth <= width) {
        doc.text(line, align === 'right' ? x + width - textWidth : x, y, { lineBreak: false });
        return height;
      }
    }
    doc.text(text, x, y, {
      width,
      // Half a line more than `lines`: room for the last line, never for one more.
      height: height + this.lineHeight() / 2,
      ellipsis: true,
      lineGap: 0,
      ...(align ? { align } : {}),
    });
    return height;
  }
  /** The longest start of `text` that fits `width` with an ellipsis after it. */
  private cut(text: string, width: number): string {
    const chars = Array.from(text);
    const fits = (n: number) =>
      this.doc.widthOfString(`${chars.slice(0, n).join('').trimEnd()}…`) <= width;
    let low = 0;
    let high = chars.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(mid)) low = mid;
      else high = mid - 1;
    }
    return `${chars.slice(0, low).join('').trimEnd()}…`;
  }
}

// ---- text ----------------------------------------------------------------------------------

/**
 * Text as printed: composed (NFC), line breaks normalised, tabs as spaces, other control
 * characters dropped.
 */
function clean(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '  ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
  );
}

/** One line: line breaks as spaces (names, captions in the index, the footer's title). */
const oneLine = (text: string) => clean(text).replace(/\s*\n\s*/g, ' ');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "1 May 2026" for a day "2026-05-01" (the day as written, no zone involved). */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [, year, month, date] = match;
  return `${Number(date)} ${MONTHS_LONG[Number(month) - 1] ?? month} ${year}`;
}

/** "1 May 2026 – 3 May 2026", or one day when both are the same. */
export function formatRange(from: string, to: string): string {
  return from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;
}

/** A date and time "1 May 2026, 10:20:30" from its parts. */
const dateTime = (y: string, mo: string, d: string, h: string, mi: string, s: string) =>
  `${Number(d)} ${MONTHS[Number(mo) - 1] ?? mo} ${y}, ${h}:${mi}:${s}`;

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** An instant as wall time in `timeZone`: "1 May 2026, 10:20:30"; null when not a date. */
function instantIn(iso: string, timeZone: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const parts: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const { year = '', month = '', day = '', hour = '', minute = '', second = '' } = parts;
  return dateTime(year, month, day, hour, minute, second);
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;
const HAS_ZONE = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * A capture time as printed, with how to read it. An instant (ends in Z or an offset) is written
 * in `timeZone`; a time the camera wrote without a zone is its wall clock, printed as it is.
 */
export function formatCaptured(
  capturedAt: string | null,
  timeZone: string,
): { text: string; short: string } {
  if (capturedAt === null) return { text: 'not recorded', short: 'not recorded' };
  if (HAS_ZONE.test(capturedAt)) {
    const time = instantIn(capturedAt, timeZone);
    if (time) return { text: `${time} (${timeZone})`, short: time };
  }
  const wall = WALL_TIME.exec(capturedAt);
  if (wall) {
    const [, y = '', mo = '', d = '', h = '', mi = '', s = '00'] = wall;
    const time = dateTime(y, mo, d, h, mi, s);
    return { text: `${time} (camera time)`, short: `${time} *` };
  }
  return { text: capturedAt, short: capturedAt };
}

/** An instant (upload, creation) in `timeZone`: "1 May 2026, 10:20:30 (Europe/Berlin)". */
export function formatInstant(iso: string, timeZone: string): string {
  const time = instantIn(iso, timeZone);
  return time ? `${time} (${timeZone})` : iso;
}

/** "48.13743, 11.57549 · near Munich", "no location". */
export function formatLocation(
  photo: Pick<ReportPdfPhoto, 'latitude' | 'longitude' | 'placeName'>,
) {
  if (photo.latitude === null || photo.longitude === null) return 'no location';
  const coordinates = `${photo.latitude.toFixed(5)}, ${photo.longitude.toFixed(5)}`;
  return photo.placeName ? `${coordinates} · near ${oneLine(photo.placeName)}` : coordinates;
}

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

// ---- the pages -----------------------------------------------------------------------------

/** Photo cells of a page: one full, two stacked, or a 2×2 grid. */
function cells(layout: ReportPdfLayout): { x: number; y: number; width: number; height: number }[] {
  const { x, y, width, height } = CONTENT;
  if (layout === 1) return [{ x, y, width, height }];
  if (layout === 2) {
    const gap = 18;
    const h = (height - gap) / 2;
    return [
      { x, y, width, height: h },
      { x, y: y + h + gap, width, height: h },
    ];
  }
  const gap = 14;
  const w = (width - gap) / 2;
  const h = (height - gap) / 2;
  return [
    { x, y, width: w, height: h },
    { x: x + w + gap, y, width: w, height: h },
    { x, y: y + h + gap, width: w, height: h },
    { x: x + w + gap, y: y + h + gap, width: w, height: h },
  ];
}

/** Type sizes and how many caption lines fit under a photo, per layout. */
const CELL_TEXT: Record<
  ReportPdfLayout,
  { name: number; caption: number; meta: number; captionLines: number }
> = {
  1: { name: 11, caption: 10, meta: 8, captionLines: 5 },
  2: { name: 10, caption: 9, meta: 7.5, captionLines: 3 },
  4: { name: 8.5, caption: 8, meta: 7, captionLines: 4 },
};
/** Room for the labels of the lines under a photo ("Captured", "Location"). */
const LABEL_WIDTH = 44;
const GAP_UNDER_IMAGE = 6;

interface IndexEntry {
  position: number;
  name: string;
  captured: string;
  sha256: string;
}

/** The footer: "Sitelog · Report #12 · title" and "Page N of M", under a thin rule. */
function drawFooter(pen: Pen, cover: ReportPdfCover, page: number, pages: number) {
  const { doc } = pen;
  doc
    .moveTo(CONTENT.x, FOOTER_RULE_Y)
    .lineTo(CONTENT.x + CONTENT.width, FOOTER_RULE_Y)
    .lineWidth(0.5)
    .strokeColor(COLOURS.rule)
    .stroke();
  pen.use('sans', 7.5, COLOURS.muted);
  const pageText = `Page ${page} of ${pages}`;
  const pageWidth = doc.widthOfString(pageText) + 2;
  pen.box(pageText, CONTENT.x + CONTENT.width - pageWidth, FOOTER_TEXT_Y, pageWidth, 1, 'right');
  pen.box(
    `Sitelog · Report #${cover.reportId} · ${oneLine(cover.title)}`,
    CONTENT.x,
    FOOTER_TEXT_Y,
    CONTENT.width - pageWidth - 24,
  );
}

/**
 * The cover: team, type, title, the facts, a note on the fingerprints, then the intro, which
 * flows on to further pages when long.
 */
function drawCover(pen: Pen, cover: ReportPdfCover) {
  const { doc } = pen;
  const { x, width } = CONTENT;
  let y = CONTENT.y;
  pen.use('bold', 11, COLOURS.muted);
  y += pen.box(oneLine(cover.teamName) || 'Sitelog', x, y, width);
  y += 6;
  doc.rect(x, y, width, 2.5).fill(COLOURS.accent);
  y += 36;
  pen.use('bold', 12, COLOURS.accent);
  y += pen.box(oneLine(cover.typeLabel), x, y, width);
  y += 4;
  pen.use('bold', 24);
  const titleHeight = Math.min(
    doc.heightOfString(oneLine(cover.title), { width, lineGap: 0 }),
    pen.lineHeight() * 4,
  );
  pen.box(oneLine(cover.title), x, y, width, 4);
  y += titleHeight + 22;

  const facts: [string, string][] = [
    ['Project', oneLine(cover.projectName)],
    ['Location', oneLine(cover.projectLocation) || '—'],
    ['Author', oneLine(cover.authorName)],
    ['Period', formatRange(cover.from, cover.to)],
    ['Photos', plural(cover.photoCount, 'photo')],
    ['Created', formatInstant(cover.createdAt, cover.timeZone)],
    ['Report', `#${cover.reportId}`],
  ];
  const labelWidth = 78;
  for (const [label, value] of facts) {
    pen.use('sans', 9, COLOURS.muted);
    pen.box(label, x, y + 1.5, labelWidth);
    pen.use('sans', 11);
    // A long value (a project's name) takes up to two lines.
    const lines =
      doc.heightOfString(value, { width: width - labelWidth }) > pen.lineHeight() * 1.5 ? 2 : 1;
    y += pen.box(value, x + labelWidth, y, width - labelWidth, lines) + 5;
  }
  y += 10;
  pen.use('sans', 8, COLOURS.muted);
  const note =
    `Each photo shows its caption, who took it, when (times in ${cover.timeZone} unless marked ` +
    `camera time: the camera recorded no time zone), where, and the SHA-256 fingerprint of the ` +
    `original file as stored. The photo index at the end lists every fingerprint, so a copy of ` +
    `the original can be checked against this report.`;
  doc.text(note, x, y, { width, lineGap: 1 });
  y = doc.y + 16;
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.5)
    .strokeColor(COLOURS.rule)
    .stroke();
  y += 16;
  const intro = clean(cover.intro).trim();
  if (intro) {
    pen.use('sans', 10.5);
    // Flows on to new pages as long as it runs (their footers are drawn once it has ended).
    doc.text(intro, x, y, { width, lineGap: 2.5, paragraphGap: 6 });
  }
}

/** The fixed layout of the text under a photo in a cell `width` wide. */
function cellText(pen: Pen, layout: ReportPdfLayout, width: number) {
  const sizes = CELL_TEXT[layout];
  const twoColumns = width > 400;
  pen.use('bold', sizes.name);
  const name = pen.lineHeight();
  pen.use('sans', sizes.caption);
  const caption = pen.lineHeight() * sizes.captionLines;
  pen.use('sans', sizes.meta);
  const meta = pen.lineHeight();
  // By, captured, uploaded | location, camera; or all five under each other; then the hash.
  const metaRows = twoColumns ? 3 : 5;
  const hashLabel = 'SHA-256 ';
  const hashText = `${hashLabel}${'0'.repeat(64)}`;
  pen.use('mono', 1);
  const hashSize = Math.min(sizes.meta, (width - 2) / pen.doc.widthOfString(hashText));
  pen.use('mono', hashSize);
  const hash = pen.lineHeight();
  const height = name + 2 + caption + 4 + meta * metaRows + 2 + hash;
  return { sizes, twoColumns, name, caption, meta, metaRows, hashSize, hash, height };
}

/**
 * One photo in its cell: the image fitted (aspect kept) at the top, centred, in a thin frame,
 * and under it the text, each part cut to its room.
 */
function drawPhoto(
  pen: Pen,
  layout: ReportPdfLayout,
  cell: { x: number; y: number; width: number; height: number },
  photo: ReportPdfPhoto,
  cover: ReportPdfCover,
) {
  const { doc } = pen;
  const text = cellText(pen, layout, cell.width);
  const room = { width: cell.width, height: cell.height - text.height - GAP_UNDER_IMAGE };

  if (photo.jpeg.length < 4 || photo.jpeg.readUInt16BE(0) !== 0xffd8)
    throw new Error(
      `Photo #${photo.position} (${oneLine(photo.name)}) has no JPEG display image: make its ` +
        `display image again (re-upload the photo) or remove it from the report.`,
    );
  let image: OpenedImage;
  try {
    image = (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(photo.jpeg);
  } catch (error) {
    // pdfkit throws strings for a JPEG it cannot read.
    throw new Error(
      `Photo #${photo.position} (${oneLine(photo.name)}): its display image cannot be read ` +
        `(${error instanceof Error ? error.message : String(error)}). Re-upload the photo or ` +
        `remove it from the report.`,
    );
  }
  const scale = Math.min(room.width / image.width, room.height / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  const ix = cell.x + (cell.width - w) / 2;
  const iy = cell.y;
  doc.image(image as unknown as Buffer, ix, iy, { width: w, height: h });
  doc.rect(ix, iy, w, h).lineWidth(0.5).strokeColor(COLOURS.frame).stroke();

  let y = iy + h + GAP_UNDER_IMAGE;
  const { x, width } = cell;
  pen.use('bold', text.sizes.name);
  pen.box(`#${photo.position}  ${oneLine(photo.name)}`, x, y, width);
  y += text.name + 2;
  pen.use('sans', text.sizes.caption);
  const caption = clean(photo.caption).trim();
  if (caption) {
    // The lines the caption takes, up to its room; the rest of the text moves up under it.
    const oneLineFits = !caption.includes('\n') && doc.widthOfString(caption) <= width;
    const lines = oneLineFits
      ? 1
      : Math.min(
          text.sizes.captionLines,
          Math.max(
            1,
            Math.round(doc.heightOfString(caption, { width, lineGap: 0 }) / pen.lineHeight()),
          ),
        );
    y += pen.box(caption, x, y, width, lines) + 4;
  }

  const captured = formatCaptured(photo.capturedAt, cover.timeZone).text;
  const left: [string, string][] = [
    ['Taken by', oneLine(photo.authorName)],
    ['Captured', captured],
    ['Uploaded', formatInstant(photo.uploadedAt, cover.timeZone)],
  ];
  const right: [string, string][] = [
    ['Location', formatLocation(photo)],
    ['Camera', photo.camera ? oneLine(photo.camera) : '—'],
  ];
  const line = (label: string, value: string, lx: number, ly: number, lw: number) => {
    pen.use('sans', text.sizes.meta, COLOURS.muted);
    pen.box(label, lx, ly, LABEL_WIDTH);
    pen.use('sans', text.sizes.meta);
    pen.box(value, lx + LABEL_WIDTH, ly, lw - LABEL_WIDTH);
  };
  if (text.twoColumns) {
    const half = (width - 12) / 2;
    left.forEach(([label, value], i) => line(label, value, x, y + i * text.meta, half));
    right.forEach(([label, value], i) =>
      line(label, value, x + half + 12, y + i * text.meta, half),
    );
  } else {
    [...left, ...right].forEach(([label, value], i) =>
      line(label, value, x, y + i * text.meta, width),
    );
  }
  y += text.meta * text.metaRows + 2;
  // Label and hash in one run of the mono font, so text extraction keeps them on one line.
  pen.use('mono', text.hashSize);
  pen.box(`SHA-256 ${photo.sha256}`, x, y, width + 1);
}

/** The photo index's row geometry: fixed, so the pages it takes are known up front. */
const INDEX = {
  headerHeight: 64,
  rowHeight: 13,
  size: 7.5,
  hashSize: 6.5,
  columns: { position: 24, captured: 90, gap: 8 },
};
/** Rows of the photo index on one page. */
export const indexRowsPerPage = Math.floor((CONTENT.height - INDEX.headerHeight) / INDEX.rowHeight);
const indexPages = (count: number) => Math.max(1, Math.ceil(count / indexRowsPerPage));

/** "Photo index": position, name, capture time and SHA-256 of every photo, over pages. */
function drawIndex(pen: Pen, cover: ReportPdfCover, entries: IndexEntry[], newPage: () => void) {
  const { doc } = pen;
  const { x, width } = CONTENT;
  pen.use('mono', INDEX.hashSize);
  const hashWidth = doc.widthOfString('0'.repeat(64)) + 2;
  const { position, captured, gap } = INDEX.columns;
  const nameWidth = width - position - captured - hashWidth - 3 * gap;
  const columnX = {
    position: x,
    name: x + position + gap,
    captured: x + position + gap + nameWidth + gap,
    hash: x + width - hashWidth,
  };
  const pages = indexPages(entries.length);
  for (let page = 0; page < pages; page++) {
    newPage();
    let y = CONTENT.y;
    pen.use('bold', 16);
    pen.box(page === 0 ? 'Photo index' : 'Photo index (continued)', x, y, width);
    y += 24;
    pen.use('sans', 7.5, COLOURS.muted);
    pen.box(
      `${plural(entries.length, 'photo')} in report order. Capture times in ${cover.timeZone}; ` +
        `* camera time (no time zone recorded). SHA-256 of each stored original.`,
      x,
      y,
      width,
      2,
    );
    y = CONTENT.y + INDEX.headerHeight - INDEX.rowHeight - 2;
    pen.use('bold', INDEX.size, COLOURS.muted);
    pen.box('#', columnX.position, y, position);
    pen.box('Photo', columnX.name, y, nameWidth);
    pen.box('Captured', columnX.captured, y, captured);
    pen.box('SHA-256', columnX.hash, y, hashWidth);
    y += INDEX.rowHeight;
    doc
      .moveTo(x, y - 2)
      .lineTo(x + width, y - 2)
      .lineWidth(0.5)
      .strokeColor(COLOURS.rule)
      .stroke();
    const rows = entries.slice(page * indexRowsPerPage, (page + 1) * indexRowsPerPage);
    rows.forEach((entry, i) => {
      const rowY = y + i * INDEX.rowHeight;
      if (i % 2 === 1) doc.rect(x, rowY - 2, width, INDEX.rowHeight).fill(COLOURS.zebra);
      pen.use('sans', INDEX.size);
      pen.box(String(entry.position), columnX.position, rowY, position);
      pen.box(entry.name, columnX.name, rowY, nameWidth);
      pen.box(entry.captured, columnX.captured, rowY, captured);
      pen.use('mono', INDEX.hashSize);
      pen.box(entry.sha256, columnX.hash, rowY + 0.5, hashWidth + 1);
    });
    if (entries.length === 0) {
      pen.use('sans', INDEX.size, COLOURS.muted);
      pen.box('The report holds no photos.', x, y, width);
    }
  }
}

function newDocument(cover: ReportPdfCover): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    autoFirstPage: false,
    // Pages are flushed by hand (renderReportPdf): the cover's once its page count is known,
    // every other page as the next one starts. Images never wait in a page: pdfkit writes each
    // image object out as it is drawn.
    bufferPages: true,
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    info: {
      Title: oneLine(cover.title),
      Author: oneLine(cover.authorName),
      Subject: `${oneLine(cover.typeLabel)} · ${oneLine(cover.projectName)} · Report #${cover.reportId}`,
      Creator: 'Sitelog',
    },
  });
  const bytes = fonts();
  for (const name of Object.keys(bytes) as FontName[]) doc.registerFont(name, bytes[name]);
  return doc;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Output pdfkit may hold that `out` has not taken yet before the drawing waits for it: about two
 * display images, so reading the next photo overlaps writing the last one, and memory stays flat
 * however many photos follow.
 */
export const PENDING_OUTPUT_LIMIT = 1024 * 1024;

/**
 * Draws the report and streams it to `out`, which it ends (or destroys, on failure). Photos are
 * pulled one at a time from `photos` and drawn `layout` to a page; `onPhoto(done)` is awaited
 * after each. Pages are numbered "Page N of M": M is known up front from `cover.photoCount`, so
 * the iterator must yield exactly that many photos (else it rejects, naming both counts).
 * Rejects with the first error of the iterator, `onPhoto`, a photo that is no JPEG, or `out`.
 */
export async function renderReportPdf(options: {
  cover: ReportPdfCover;
  layout: ReportPdfLayout;
  photos: AsyncIterable<ReportPdfPhoto>;
  out: NodeJS.WritableStream;
  onPhoto?: (done: number) => void | Promise<void>;
}): Promise<{ pages: number }> {
  const { cover, layout, photos, out, onPhoto } = options;
  const expected = Math.max(0, cover.photoCount);
  const doc = newDocument(cover);
  const pen = new Pen(doc);
  let totalPages = 0;
  let page = 0;
  /** Writes out the page(s) drawn so far and starts the next, with its footer. */
  const newPage = () => {
    doc.flushPages();
    doc.addPage();
    page++;
    drawFooter(pen, cover, page, totalPages);
  };

  let failure: unknown;
  const written = pipeline(doc, out).catch((error: unknown) => {
    failure ??= error;
  });
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  /**
   * Backpressure: when `out` is full the pipe pauses and pdfkit's output waits in `doc`; past
   * PENDING_OUTPUT_LIMIT, let it drain before drawing more.
   */
  const room = async () => {
    await nextTurn();
    while (failure === undefined && doc.readableLength > PENDING_OUTPUT_LIMIT) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          out.removeListener('drain', done);
          out.removeListener('close', done);
          resolve();
        };
        // The timer re-checks in case the pipe moved on without a 'drain' (never wait forever).
        const timer = setTimeout(done, 200);
        out.once('drain', done);
        out.once('close', done);
      });
      await nextTurn();
    }
    check();
  };

  try {
    // The cover's pages wait in pdfkit's page buffer until the intro has run its course: then
    // the total is known and each gets its footer.
    doc.addPage();
    drawCover(pen, cover);
    page = doc.bufferedPageRange().count;
    totalPages = page + Math.ceil(expected / layout) + indexPages(expected);
    for (let i = 0; i < page; i++) {
      doc.switchToPage(i);
      drawFooter(pen, cover, i + 1, totalPages);
    }
    await room();

    const slots = cells(layout);
    const entries: IndexEntry[] = [];
    let done = 0;
    for await (const photo of photos) {
      check();
      if (done >= expected)
        throw new Error(
          `The report has ${plural(expected, 'photo')} but more were given (its photos changed ` +
            `while it was made): generate the report again.`,
        );
      const slot = done % layout;
      if (slot === 0) newPage();
      drawPhoto(pen, layout, slots[slot]!, photo, cover);
      entries.push({
        position: photo.position,
        name: oneLine(photo.name),
        captured: formatCaptured(photo.capturedAt, cover.timeZone).short,
        sha256: photo.sha256,
      });
      done++;
      await room();
      await onPhoto?.(done);
      check();
    }
    if (done !== expected)
      throw new Error(
        `The report has ${plural(expected, 'photo')} but only ${done} could be drawn: generate ` +
          `the report again.`,
      );
    drawIndex(pen, cover, entries, newPage);
    if (page !== totalPages)
      throw new Error(`The PDF came out with ${page} pages, not the ${totalPages} numbered.`);
    doc.end();
    await written;
    check();
    return { pages: page };
  } catch (error) {
    const reason = error instanceof Error ? error : new Error(String(error));
    if (!doc.destroyed) doc.destroy(reason);
    await written;
    throw failure ?? reason;
  }
}
