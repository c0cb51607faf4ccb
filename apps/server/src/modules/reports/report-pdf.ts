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

/** DejaVu Sans and its bold (Latin, Greek, Cyrillic and more): all text but the fingerprints. */
const FONT_FILES = {
  sans: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;
type EmbeddedFontName = keyof typeof FONT_FILES;
/**
 * The fonts text is drawn in: the embedded DejaVu fonts, and `mono`, PDF's standard Courier
 * (every reader has it, nothing embedded) for the SHA-256 fingerprints, which are hex digits
 * only. Courier's glyphs are all 600 units wide, so a fingerprint needs no layout at all: it
 * is written as it is, the PDF's text the characters themselves.
 */
type FontName = EmbeddedFontName | 'mono';
const PDFKIT_FONT: Record<FontName, string> = { sans: 'sans', bold: 'bold', mono: 'Courier' };
const COURIER_ADVANCE = 600;

let fontBytes: Record<EmbeddedFontName, Buffer> | undefined;

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
 * The DejaVu fonts, read once per process; each document parses and subsets them itself (a PDF
 * embeds only the glyphs it uses).
 */
function fonts(): Record<EmbeddedFontName, Buffer> {
  if (!fontBytes) {
    const require = createRequire(import.meta.url);
    const read = (file: string) => withoutLayoutTables(readFileSync(require.resolve(file)));
    fontBytes = { sans: read(FONT_FILES.sans), bold: read(FONT_FILES.bold) };
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

/**
 * What the pen uses of a pdfkit font (0.17), as pdfkit's own line drawing (`_fragment`) does.
 * `encode` (embedded fonts) lays text out with fontkit, adds its glyphs to the PDF's font
 * subset and returns their ids (hex, in the subset) and positions (1000 units per em).
 */
interface PdfFont {
  id: string;
  ascender: number;
  ref(): unknown;
  lineHeight(size: number, includeGap?: boolean): number;
  widthOfString(text: string, size: number): number;
  encode(text: string): [string[], GlyphPosition[]];
  /** The fontkit font (embedded fonts). */
  font: FontkitFont;
}
interface GlyphPosition {
  xAdvance: number;
  advanceWidth: number;
  xOffset: number;
  yOffset: number;
}
interface FontkitFont {
  unitsPerEm: number;
  layout(text: string): { positions: { xAdvance: number }[] };
}

/** A line's glyphs as the operand of PDF's TJ operator, and its advance (1000 units per em). */
interface GlyphLine {
  tj: string;
  advance: number;
}

/** A PDF number: at most two decimals (a hundredth of a point), no trailing zeros. */
const num = (n: number) => String(Math.round(n * 100) / 100);

const rgbs = new Map<string, string>();
/** `#rrggbb` as PDF's three colour components ("0.12 0.16 0.2"). */
function rgb(hex: string): string {
  let components = rgbs.get(hex);
  if (!components) {
    const parts = [1, 3, 5].map((at) => num(parseInt(hex.slice(at, at + 2), 16) / 255));
    rgbs.set(hex, (components = parts.join(' ')));
  }
  return components;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Latin-1 text without control characters or the soft hyphen (which fontkit hides): one glyph
 * per character, none a combining mark, so its layout is advances and pairwise kerning.
 */
const SIMPLE_LATIN = /^[\x20-\x7e\xa0-\xac\xae-\xff]*$/;

/**
 * Advances and kerning of `SIMPLE_LATIN` text in one font, as fontkit lays it out: each
 * character's advance, and each pair's kerning, measured on first use. Per process (the fonts
 * are the same for every report). Exact because the fonts have no OpenType layout tables
 * (`withoutLayoutTables`): fontkit then lays such text out as one glyph per character, its
 * advance, and the `kern` table's adjustment between each pair.
 */
class LatinMetrics {
  /** Advance by character code (1000 units per em), NaN until measured. */
  private readonly advance = new Float64Array(256).fill(NaN);
  /** Kerning by pair (code × 256 + next), NaN until measured. */
  private readonly kerning = new Float32Array(256 * 256).fill(NaN);
  constructor(private readonly font: FontkitFont) {}
  /** Advance of character `code` alone. */
  own(code: number): number {
    let advance = this.advance[code]!;
    if (Number.isNaN(advance)) advance = this.advance[code] = this.measure(code, -1);
    return advance;
  }
  /** Advance of character `code` before `next` (-1: at the end), kerning included. */
  before(code: number, next: number): number {
    const own = this.own(code);
    // pdfkit lays text out a word at a time, a word ending after its space: no kerning after
    // a space.
    if (next < 0 || code === 0x20) return own;
    const pair = code * 256 + next;
    let kern = this.kerning[pair]!;
    if (Number.isNaN(kern)) kern = this.kerning[pair] = this.measure(code, next) - own;
    return own + kern;
  }
  private measure(code: number, next: number): number {
    const text = next < 0 ? String.fromCharCode(code) : String.fromCharCode(code, next);
    const run = this.font.layout(text);
    return ((run.positions[0]?.xAdvance ?? 0) * 1000) / this.font.unitsPerEm;
  }
}
/** Per font, measured with the fontkit font of the first report that needed them. */
const latinMetrics = new Map<EmbeddedFontName, LatinMetrics>();

/** Recurring lines (`Pen.label`) kept per font for reuse before starting over. */
const LABEL_CACHE_SIZE = 64;

/**
 * Drawing text in boxes: fonts by name, one line or a few, cut with an ellipsis; and the rules
 * and boxes around it.
 *
 * A photo's text is a dozen short lines, two and a half thousand for a 200-photo report with
 * its index and footers, most of them new words (times, coordinates, file names). pdfkit draws
 * each line through its option handling, a save/transform/restore and eight content writes of
 * their own, and lays each new word out with fontkit, keeping every word's glyph objects for
 * the rest of the document: that was most of what a photo cost beyond copying its JPEG
 * (bench/README.md, "Photo reports"). So a line that fits is written here as pdfkit would
 * write it (the same glyphs, kerning, position and font subset), as a few operators added to a
 * block that `flush` writes to the page in one piece. Latin-1 text (most of it: times,
 * coordinates, labels, most names) is laid out from per-character advances and per-pair
 * kerning that fontkit measured once (`LatinMetrics`), and lines that recur (labels, an
 * author, a camera) are laid out once per PDF; other text goes through pdfkit's `encode`
 * (fontkit). The fingerprints are in Courier (see `FontName`). A line that needs more than one
 * line, or has glyphs fontkit moves off the baseline (combining marks), is drawn by pdfkit's
 * `text`.
 */
class Pen {
  private readonly fonts = {} as Record<FontName, PdfFont>;
  private readonly metrics = {} as Record<EmbeddedFontName, LatinMetrics>;
  /** Each embedded font's glyph ids (hex, in this PDF's subset) by Latin-1 code, on first use. */
  private readonly glyphIds = {} as Record<EmbeddedFontName, string[]>;
  /** Laid-out recurring lines (`label`) by font and text. */
  private readonly labels = {} as Record<EmbeddedFontName, Map<string, GlyphLine>>;
  private font: FontName = 'sans';
  private size = 10;
  private colour = COLOURS.ink;
  /** Rules and boxes to draw (operators in pdfkit's page space), written out by `flush`. */
  private graphics: string[] = [];
  /** Text to draw over them (operators of a text object), written out by `flush`. */
  private text: string[] = [];
  /** The font (`/F1 8 Tf`) and colour operators in force in `text`. */
  private textFont = '';
  private textColour = '';

  constructor(readonly doc: Doc) {
    for (const name of Object.keys(PDFKIT_FONT) as FontName[]) {
      doc.font(PDFKIT_FONT[name]);
      this.fonts[name] = (doc as unknown as { _font: PdfFont })._font;
    }
    for (const name of Object.keys(FONT_FILES) as EmbeddedFontName[]) {
      let metrics = latinMetrics.get(name);
      if (!metrics) latinMetrics.set(name, (metrics = new LatinMetrics(this.fonts[name].font)));
      this.metrics[name] = metrics;
      this.glyphIds[name] = [];
      this.labels[name] = new Map();
    }
  }

  use(font: FontName, size: number, colour = COLOURS.ink): this {
    this.font = font;
    this.size = size;
    this.colour = colour;
    return this;
  }

  /** Height of one line in the current font, as pdfkit moves down a line. */
  lineHeight(): number {
    return this.fonts[this.font].lineHeight(this.size, true);
  }

  /** How far below a line's top its baseline is, in the current font. */
  ascent(): number {
    return (this.fonts[this.font].ascender * this.size) / 1000;
  }

  /** Width of `text` in the current font. */
  widthOf(text: string): number {
    const { font, size } = this;
    if (font === 'mono' && PRINTABLE_ASCII.test(text))
      return (COURIER_ADVANCE * text.length * size) / 1000;
    if (font === 'mono' || !SIMPLE_LATIN.test(text))
      return this.fonts[font].widthOfString(text, size);
    const metrics = this.metrics[font];
    let advance = 0;
    for (let i = 0; i < text.length; i++)
      advance += metrics.before(
        text.charCodeAt(i),
        i + 1 < text.length ? text.charCodeAt(i + 1) : -1,
      );
    return (advance * size) / 1000;
  }

  /** Height of `text` wrapped to a width, as pdfkit would draw it (a measure: nothing drawn). */
  heightOf(text: string, options: PDFKit.Mixins.TextOptions): number {
    return this.doc.font(PDFKIT_FONT[this.font]).fontSize(this.size).heightOfString(text, options);
  }

  /**
   * `text` in a box of at most `lines` lines at (x, y), cut with an ellipsis when longer; never
   * breaks the page. Returns the height the box takes.
   */
  box(text: string, x: number, y: number, width: number, lines = 1, align?: 'right'): number {
    const height = this.lineHeight() * lines;
    if (!text) return height;
    if (!text.includes('\n')) {
      // One line that fits (nearly every one), or cut to one.
      if (this.line(text, x, y, width, align)) return height;
      if (lines === 1 && this.line(this.cut(text, width), x, y, width, align)) return height;
    }
    this.withPdfkit().text(text, x, y, {
      width,
      // Half a line more than `lines`: room for the last line, never for one more.
      height: height + this.lineHeight() / 2,
      ellipsis: true,
      lineGap: 0,
      ...(align ? { align } : {}),
    });
    return height;
  }

  /**
   * A one-line `box` for text that recurs on every photo or page (a label, an author, the
   * footer's title): laid out once per PDF and kept (other lines are not: most are new).
   */
  label(text: string, x: number, y: number, width: number): void {
    if (this.font !== 'mono' && !text.includes('\n')) {
      const labels = this.labels[this.font];
      let glyphs = labels.get(text);
      if (!glyphs) {
        glyphs = this.glyphLine(text) ?? undefined;
        if (labels.size >= LABEL_CACHE_SIZE) labels.clear();
        if (glyphs) labels.set(text, glyphs);
      }
      if (glyphs && this.write(glyphs, x, y, width)) return;
    }
    this.box(text, x, y, width);
  }

  /**
   * `text` on one line, its top at y, when it fits `width` (left-aligned, or right-aligned in
   * it); false, with nothing drawn, when it does not (or needs pdfkit: glyphs off the baseline).
   */
  line(text: string, x: number, y: number, width: number, align?: 'right'): boolean {
    const glyphs = this.glyphLine(text);
    return glyphs ? this.write(glyphs, x, y, width, align) : false;
  }

  /** Laid-out glyphs added to the text, as `line` draws them; false when they do not fit. */
  private write(glyphs: GlyphLine, x: number, y: number, width: number, align?: 'right'): boolean {
    const scale = this.size / 1000;
    const textWidth = glyphs.advance * scale;
    if (textWidth > width) return false;
    const font = this.fonts[this.font];
    const page = this.doc.page as unknown as { height: number; fonts: Record<string, unknown> };
    const fontOperator = `/${font.id} ${num(this.size)} Tf`;
    if (fontOperator !== this.textFont) {
      this.text.push((this.textFont = fontOperator));
      // The page's resources name the font (a block is always on one page).
      page.fonts[font.id] ??= font.ref();
    }
    const colourOperator = `${rgb(this.colour)} rg`;
    if (colourOperator !== this.textColour) this.text.push((this.textColour = colourOperator));
    const left = align === 'right' ? x + width - textWidth : x;
    // The line's top at y, as pdfkit places it: its baseline an ascender lower.
    const baseline = page.height - y - font.ascender * scale;
    this.text.push(`1 0 0 1 ${num(left)} ${num(baseline)} Tm [${glyphs.tj}] TJ`);
    return true;
  }

  /** Text pdfkit lays out: wrapped to `width`, flowing on to new pages (the cover's intro). */
  paragraph(text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions): void {
    this.withPdfkit().text(text, x, y, options);
  }

  /** A horizontal rule, half a point wide. */
  rule(x1: number, x2: number, y: number, colour: string): void {
    this.graphics.push(`${rgb(colour)} RG 0.5 w ${num(x1)} ${num(y)} m ${num(x2)} ${num(y)} l S`);
  }

  /** A rectangle's outline, half a point wide. */
  frame(x: number, y: number, width: number, height: number, colour: string): void {
    this.graphics.push(
      `${rgb(colour)} RG 0.5 w ${num(x)} ${num(y)} ${num(width)} ${num(height)} re S`,
    );
  }

  /** A filled rectangle (under the text drawn with it). */
  fill(x: number, y: number, width: number, height: number, colour: string): void {
    this.graphics.push(`${rgb(colour)} rg ${num(x)} ${num(y)} ${num(width)} ${num(height)} re f`);
  }

  /**
   * Writes the rules and boxes, then the text over them, to the page in one piece: before
   * pdfkit draws anything that should be over them, and before a new page.
   */
  flush(): void {
    const parts: string[] = [];
    // Each part in its own graphics state (q … Q): no colour or line width leaks to pdfkit.
    if (this.graphics.length) parts.push(`q\n${this.graphics.join('\n')}\nQ`);
    // pdfkit's page space is flipped (y down); the text is written in PDF's own (y up).
    if (this.text.length) {
      const flip = `1 0 0 -1 0 ${num(this.doc.page.height)} cm`;
      parts.push(`q\n${flip}\nBT\n${this.text.join('\n')}\nET\nQ`);
    }
    if (!parts.length) return;
    this.doc.addContent(parts.join('\n'));
    this.graphics = [];
    this.text = [];
    this.textFont = '';
    this.textColour = '';
  }

  /** The glyphs of `text` in the current font; null when pdfkit must draw it. */
  private glyphLine(text: string): GlyphLine | null {
    if (this.font === 'mono')
      return PRINTABLE_ASCII.test(text)
        ? { tj: `(${text.replace(/[\\()]/g, '\\$&')})`, advance: COURIER_ADVANCE * text.length }
        : null;
    return SIMPLE_LATIN.test(text) ? this.latinGlyphs(text) : this.glyphs(text);
  }

  /** `SIMPLE_LATIN` text in an embedded font: glyphs and advances from `LatinMetrics`. */
  private latinGlyphs(text: string): GlyphLine {
    const font = this.font as EmbeddedFontName;
    const metrics = this.metrics[font];
    const ids = this.glyphIds[font];
    let tj = '';
    let run = '';
    let advance = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      // First use in this PDF: pdfkit adds the glyph to the subset, with its width and Unicode.
      run += ids[code] ??= this.fonts[font].encode(text[i]!)[0][0] ?? '0000';
      const own = metrics.own(code);
      const xAdvance = metrics.before(code, i + 1 < text.length ? text.charCodeAt(i + 1) : -1);
      advance += xAdvance;
      // Kerning moves the next glyph: a number in the TJ array (thousandths of the size).
      if (xAdvance !== own) {
        tj += `<${run}> ${num(own - xAdvance)} `;
        run = '';
      }
    }
    return { tj: run ? `${tj}<${run}>` : tj, advance };
  }

  /** Any text, laid out by pdfkit (fontkit); null when a glyph sits off the baseline. */
  private glyphs(text: string): GlyphLine | null {
    const [ids, positions] = this.fonts[this.font].encode(text);
    let tj = '';
    let run = '';
    let advance = 0;
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i]!;
      if (position.xOffset || position.yOffset) return null;
      run += ids[i];
      advance += position.xAdvance;
      const kern = position.xAdvance - position.advanceWidth;
      if (kern !== 0) {
        tj += `<${run}> ${num(-kern)} `;
        run = '';
      }
    }
    return { tj: run ? `${tj}<${run}>` : tj, advance };
  }

  /** pdfkit, set to the pen's font, size and colour, after what the pen has drawn so far. */
  private withPdfkit(): Doc {
    this.flush();
    return this.doc.font(PDFKIT_FONT[this.font]).fontSize(this.size).fillColor(this.colour);
  }

  /** The longest start of `text` that fits `width` with an ellipsis after it. */
  private cut(text: string, width: number): string {
    const chars = Array.from(text);
    const fits = (n: number) => this.widthOf(`${chars.slice(0, n).join('').trimEnd()}…`) <= width;
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
  // Printable ASCII (most names and captions) is already all that.
  if (PRINTABLE_ASCII.test(text)) return text;
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
const oneLine = (text: string) =>
  PRINTABLE_ASCII.test(text) ? text : clean(text).replace(/\s*\n\s*/g, ' ');

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

/** A UTC offset (ms) of `timeZone` at `ms` (a whole second), from ICU. */
function offsetFromIcu(timeZone: string, ms: number): number {
  const parts: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const { year, month, day, hour, minute, second } = parts;
  const wall = new Date(0);
  wall.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  wall.setUTCHours(Number(hour), Number(minute), Number(second));
  return wall.getTime() - ms;
}

const HOUR = 3_600_000;
/** Offsets by zone and UTC hour (`offsetAt`); NaN for an hour in which the offset changes. */
const zoneOffsets = new Map<string, Map<number, number>>();

/**
 * The UTC offset (ms) of `timeZone` at `ms`, asked of ICU once per hour of time rather than per
 * photo (a report's photos come from a few hours; ICU's answer cost more than the rest of the
 * photo's text). An hour whose first and last second have the same offset has it throughout:
 * no zone changes its offset twice within an hour. An hour with a change is asked per instant.
 */
function offsetAt(timeZone: string, ms: number): number {
  let offsets = zoneOffsets.get(timeZone);
  if (!offsets) zoneOffsets.set(timeZone, (offsets = new Map<number, number>()));
  const hour = Math.floor(ms / HOUR);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const start = offsetFromIcu(timeZone, hour * HOUR);
    offset = offsetFromIcu(timeZone, hour * HOUR + HOUR - 1000) === start ? start : NaN;
    if (offsets.size >= 4096) offsets.clear();
    offsets.set(hour, offset);
  }
  return Number.isNaN(offset) ? offsetFromIcu(timeZone, Math.floor(ms / 1000) * 1000) : offset;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as wall time in `timeZone`: "1 May 2026, 10:20:30"; null when not a date. */
function instantIn(iso: string, timeZone: string): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const wall = new Date(ms + offsetAt(timeZone, ms));
  return (
    `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}, ` +
    `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`
  );
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
  pen.rule(CONTENT.x, CONTENT.x + CONTENT.width, FOOTER_RULE_Y, COLOURS.rule);
  pen.use('sans', 7.5, COLOURS.muted);
  const pageText = `Page ${page} of ${pages}`;
  const pageWidth = pen.widthOf(pageText) + 2;
  pen.box(pageText, CONTENT.x + CONTENT.width - pageWidth, FOOTER_TEXT_Y, pageWidth, 1, 'right');
  pen.label(
    `Sitelog · Report #${cover.reportId} · ${oneLine(cover.title)}`,
    CONTENT.x,
    FOOTER_TEXT_Y,
    CONTENT.width - pageWidth - 24,
  );
  pen.flush();
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
  pen.fill(x, y, width, 2.5, COLOURS.accent);
  y += 36;
  pen.use('bold', 12, COLOURS.accent);
  y += pen.box(oneLine(cover.typeLabel), x, y, width);
  y += 4;
  pen.use('bold', 24);
  const titleHeight = Math.min(
    pen.heightOf(oneLine(cover.title), { width, lineGap: 0 }),
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
      pen.heightOf(value, { width: width - labelWidth }) > pen.lineHeight() * 1.5 ? 2 : 1;
    y += pen.box(value, x + labelWidth, y, width - labelWidth, lines) + 5;
  }
  y += 10;
  pen.use('sans', 8, COLOURS.muted);
  const note =
    `Each photo shows its caption, who took it, when (times in ${cover.timeZone} unless marked ` +
    `camera time: the camera recorded no time zone), where, and the SHA-256 fingerprint of the ` +
    `original file as stored. The photo index at the end lists every fingerprint, so a copy of ` +
    `the original can be checked against this report.`;
  pen.paragraph(note, x, y, { width, lineGap: 1 });
  y = doc.y + 16;
  pen.rule(x, x + width, y, COLOURS.rule);
  y += 16;
  const intro = clean(cover.intro).trim();
  if (intro) {
    pen.use('sans', 10.5);
    // Flows on to new pages as long as it runs (their footers are drawn once it has ended).
    pen.paragraph(intro, x, y, { width, lineGap: 2.5, paragraphGap: 6 });
  }
  pen.flush();
}

/** The fixed layout of the text under a photo in a cell `width` wide (the same for every cell). */
type CellText = ReturnType<typeof cellText>;
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
  const hashSize = Math.min(sizes.meta, (width - 2) / pen.widthOf(hashText));
  // The hash's line as tall as a line of the text above, its baseline where theirs would be.
  pen.use('sans', hashSize);
  const hash = pen.lineHeight();
  const hashDrop = pen.ascent() - pen.use('mono', hashSize).ascent();
  const height = name + 2 + caption + 4 + meta * metaRows + 2 + hash;
  return { sizes, twoColumns, name, caption, meta, metaRows, hashSize, hash, hashDrop, height };
}

/**
 * One photo in its cell: the image fitted (aspect kept) at the top, centred, in a thin frame,
 * and under it the text, each part cut to its room. Returns the photo's row of the index.
 */
function drawPhoto(
  pen: Pen,
  text: CellText,
  cell: { x: number; y: number; width: number; height: number },
  photo: ReportPdfPhoto,
  cover: ReportPdfCover,
): IndexEntry {
  const { doc } = pen;
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
  pen.frame(ix, iy, w, h, COLOURS.frame);

  let y = iy + h + GAP_UNDER_IMAGE;
  const { x, width } = cell;
  const name = oneLine(photo.name);
  pen.use('bold', text.sizes.name);
  pen.box(`#${photo.position}  ${name}`, x, y, width);
  y += text.name + 2;
  pen.use('sans', text.sizes.caption);
  const caption = clean(photo.caption).trim();
  if (caption) {
    // The lines the caption takes, up to its room; the rest of the text moves up under it.
    let lines = 1;
    if (caption.includes('\n') || !pen.line(caption, x, y, width)) {
      const height = pen.heightOf(caption, { width, lineGap: 0 });
      lines = Math.min(text.sizes.captionLines, Math.max(1, Math.round(height / pen.lineHeight())));
      pen.box(caption, x, y, width, lines);
    }
    y += pen.lineHeight() * lines + 4;
  }

  const captured = formatCaptured(photo.capturedAt, cover.timeZone);
  // Label, value, and whether the value recurs from photo to photo (laid out once: `label`).
  const rows: [string, string, boolean][] = [
    ['Taken by', oneLine(photo.authorName), true],
    ['Captured', captured.text, false],
    ['Uploaded', formatInstant(photo.uploadedAt, cover.timeZone), false],
    ['Location', formatLocation(photo), false],
    ['Camera', photo.camera ? oneLine(photo.camera) : '—', true],
  ];
  // By, captured, uploaded | location, camera in a wide cell; else all five under each other.
  const half = (width - 12) / 2;
  rows.forEach(([label, value, recurs], i) => {
    const right = text.twoColumns && i >= 3;
    const lx = right ? x + half + 12 : x;
    const ly = y + (right ? i - 3 : i) * text.meta;
    const lw = text.twoColumns ? half : width;
    pen.use('sans', text.sizes.meta, COLOURS.muted).label(label, lx, ly, LABEL_WIDTH);
    pen.use('sans', text.sizes.meta);
    if (recurs) pen.label(value, lx + LABEL_WIDTH, ly, lw - LABEL_WIDTH);
    else pen.box(value, lx + LABEL_WIDTH, ly, lw - LABEL_WIDTH);
  });
  y += text.meta * text.metaRows + 2;
  // Label and hash in one run of the mono font, so text extraction keeps them on one line.
  pen.use('mono', text.hashSize);
  pen.box(`SHA-256 ${photo.sha256}`, x, y + text.hashDrop, width + 1);
  pen.flush();
  return { position: photo.position, name, captured: captured.short, sha256: photo.sha256 };
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
  const { x, width } = CONTENT;
  pen.use('mono', INDEX.hashSize);
  const hashWidth = pen.widthOf('0'.repeat(64)) + 2;
  // The hash on the baseline of the row's other columns.
  const hashDrop = pen.use('sans', INDEX.size).ascent() - pen.use('mono', INDEX.hashSize).ascent();
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
    pen.rule(x, x + width, y - 2, COLOURS.rule);
    const rows = entries.slice(page * indexRowsPerPage, (page + 1) * indexRowsPerPage);
    rows.forEach((entry, i) => {
      const rowY = y + i * INDEX.rowHeight;
      if (i % 2 === 1) pen.fill(x, rowY - 2, width, INDEX.rowHeight, COLOURS.zebra);
      pen.use('sans', INDEX.size);
      pen.box(String(entry.position), columnX.position, rowY, position);
      pen.box(entry.name, columnX.name, rowY, nameWidth);
      pen.box(entry.captured, columnX.captured, rowY, captured);
      pen.use('mono', INDEX.hashSize);
      pen.box(entry.sha256, columnX.hash, rowY + hashDrop, hashWidth + 1);
    });
    if (entries.length === 0) {
      pen.use('sans', INDEX.size, COLOURS.muted);
      pen.box('The report holds no photos.', x, y, width);
    }
    pen.flush();
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
    // Streams are written as they are, not deflated: deflating a page's text (≈ 4 KB) cost
    // ≈ 0.02 ms of CPU a photo, 2–3 % of what a photo costs, to save ≈ 2 KB a photo, 0.5 % of
    // the file (the JPEGs are never deflated); the font subsets come to ≈ 10 KB more.
    compress: false,
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
  for (const name of Object.keys(bytes) as EmbeddedFontName[]) doc.registerFont(name, bytes[name]);
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
    pen.flush();
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
    const text = cellText(pen, layout, slots[0]!.width);
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
      entries.push(drawPhoto(pen, text, slots[slot]!, photo, cover));
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
