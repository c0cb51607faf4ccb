import type { Upload } from '@sitelog/shared';
import { parseApiTime } from '@/lib/format-photo-time';

type DatedUpload = Pick<Upload, 'id' | 'createdAt' | 'capturedAt'>;

/** Which time put a photo under its heading. */
export type DayBasis = 'taken' | 'uploaded';

export interface DayGroup<T extends DatedUpload> {
  /** "2026-11-16": the local calendar day. */
  key: string;
  /** "Today", "Yesterday", "Mon 16 Nov", or "Mon 16 Nov 2025" in another year. */
  label: string;
  /** What the heading's day is counted by: every photo's capture time, upload time, or both. */
  basis: DayBasis | 'mixed';
  uploads: T[];
}

const MS_PER_DAY = 86_400_000;
const weekdayDayMonth = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});
const weekdayDayMonthYear = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

const dayKey = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** The heading of a calendar day, seen from `now`: "Today", "Yesterday", "Mon 16 Nov". */
export function dayLabel(day: Date, now: Date = new Date()): string {
  const days = Math.round((startOfDay(now) - startOfDay(day)) / MS_PER_DAY);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  const format = day.getFullYear() === now.getFullYear() ? weekdayDayMonth : weekdayDayMonthYear;
  // en-GB writes "Mon 16 Nov"; some engines put a comma after the weekday.
  return format.format(day).replace(',', '');
}

/** The day a photo is filed under: when it was taken if the camera said, else when uploaded. */
export function photoDay(upload: DatedUpload): { date: Date; basis: DayBasis } | null {
  const taken = upload.capturedAt ? parseApiTime(upload.capturedAt) : null;
  if (taken) return { date: taken, basis: 'taken' };
  const uploaded = parseApiTime(upload.createdAt);
  return uploaded ? { date: uploaded, basis: 'uploaded' } : null;
}

/**
 * Splits a feed (in its own order, newest upload first) into runs of photos of the same day.
 * The feed stays in the order the API pages it (keyset on upload time), so a photo taken on
 * another day than its neighbours starts a run of its own rather than being moved: nothing
 * jumps when the next page arrives, and the last run of a page continues into the next.
 */
export function groupByDay<T extends DatedUpload>(
  uploads: readonly T[],
  now: Date = new Date(),
): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const upload of uploads) {
    const day = photoDay(upload);
    const key = day ? dayKey(day.date) : 'unknown';
    let group = groups.at(-1);
    if (!group || group.key !== key) {
      group = {
        key,
        label: day ? dayLabel(day.date, now) : 'Date unknown',
        basis: day?.basis ?? 'uploaded',
        uploads: [],
      };
      groups.push(group);
    } else if (day && group.basis !== day.basis) {
      group.basis = 'mixed';
    }
    group.uploads.push(upload);
  }
  return groups;
}

/** What a heading says about its day: "by capture time", "by upload time" or both. */
export function basisLabel(basis: DayGroup<DatedUpload>['basis']): string {
  if (basis === 'taken') return 'by capture time';
  if (basis === 'uploaded') return 'by upload time';
  return 'by capture time, or upload time where the photo has none';
}
