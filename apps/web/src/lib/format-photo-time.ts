import { formatRelativeDay } from './format-relative-day';

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const exact = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * A time as the API sends it. An instant ("…Z") reads in the viewer's zone; a capture time the
 * camera wrote without a zone ("2024-05-06T07:08:09") is parsed as local time, i.e. shown as the
 * camera's wall clock, unshifted (see `uploadSchema.capturedAt`).
 */
export function parseApiTime(value: string): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "today, 14:32", "yesterday, 09:05", "3 days ago": the spec's relative day plus the hour. */
export function formatTileTime(value: string, now: Date = new Date()): string {
  const date = parseApiTime(value);
  if (!date) return '';
  return `${formatRelativeDay(date, now)}, ${timeOfDay.format(date)}`;
}

/** "Mon, 16 Nov 2026, 14:32" (in the viewer's locale): the exact time behind a relative one. */
export function formatExactTime(value: string): string {
  const date = parseApiTime(value);
  return date ? exact.format(date) : value;
}
