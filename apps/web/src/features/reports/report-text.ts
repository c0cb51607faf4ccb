import { reportTypeLabels, type Report } from '@sitelog/shared';

/** "820 KB", "4.2 MB": a PDF's size. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A `YYYY-MM-DD` day as a local date (no time zone shift: it is a calendar day). */
function dayDate(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * The days a report covers, in the viewer's locale: "Nov 20, 2026" for one day,
 * "Nov 20 – 22, 2026" for several (the locale decides how a range is written).
 */
export function formatDayRange(from: string, to: string): string {
  const start = dayDate(from);
  const end = dayDate(to);
  if (!start || !end) return from === to ? from : `${from} – ${to}`;
  if (from === to) return dayFormat.format(start);
  return dayFormat.formatRange(start, end);
}

export const typeLabel = (report: Pick<Report, 'type'>) => reportTypeLabels[report.type];

export const authorName = (report: Pick<Report, 'author'>) =>
  `${report.author.firstname} ${report.author.lastname}`.trim();

/**
 * Where the report's PDF is, in one sentence: what a status line shows and the live region
 * says ("Generating… 12 of 40 photos", "Report ready").
 */
export function statusSentence(
  report: Pick<Report, 'status' | 'progress' | 'photoCount' | 'error'>,
): string {
  switch (report.status) {
    case 'queued':
      return 'Waiting to start…';
    case 'generating':
      return `Generating… ${Math.min(report.progress, report.photoCount)} of ${plural(report.photoCount, 'photo')}`;
    case 'ready':
      return 'Report ready';
    case 'failed':
      return `The PDF could not be made${report.error ? `: ${report.error}` : '.'}`;
  }
}

/** The PDF's file name for a download: the title, safe on every system, with the report id. */
export function pdfFileName(report: Pick<Report, 'id' | 'title'>): string {
  const base = report.title
    .normalize('NFC')
    // Characters no file system takes, control characters and the path separators.
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return `${base === '' ? 'Report' : base} (report ${report.id}).pdf`;
}
