import { formatRelativeDay } from '@/lib/format-relative-day';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const fullFormat = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' });

const readDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * How long ago, briefly: "just now", "5 minutes ago", "3 hours ago", then calendar days in the
 * viewer's time zone ("yesterday", "4 days ago"), and the date from a week back. A time ahead of
 * the device's clock reads "just now".
 */
export function formatTimeAgo(iso: string, now: Date = new Date()): string {
  const then = readDate(iso);
  if (!then) return '';
  const ago = now.getTime() - then.getTime();
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  const day = formatRelativeDay(then, now);
  if (day === 'today') return relative.format(-Math.floor(ago / HOUR), 'hour');
  const days = day === 'yesterday' ? 1 : Number.parseInt(day, 10);
  return days < 7 ? relative.format(-days, 'day') : dateFormat.format(then);
}

/** The exact moment, for a tooltip: "Monday, November 23, 2026 at 9:41 AM". */
export function formatFullTime(iso: string): string {
  const then = readDate(iso);
  return then ? fullFormat.format(then) : '';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The viewer's calendar day of a moment, "2026-11-23", to group a timeline by. */
export function localDayKey(iso: string): string {
  const then = readDate(iso);
  if (!then) return '';
  return `${then.getFullYear()}-${pad(then.getMonth() + 1)}-${pad(then.getDate())}`;
}

const weekdayFormat = new Intl.DateTimeFormat('en', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
});
const weekdayYearFormat = new Intl.DateTimeFormat('en', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

/** A day's heading: "Today", "Yesterday", "Monday, November 16" (with the year if not this one). */
export function formatDayHeading(iso: string, now: Date = new Date()): string {
  const then = readDate(iso);
  if (!then) return '';
  const day = formatRelativeDay(then, now);
  if (day === 'today') return 'Today';
  if (day === 'yesterday') return 'Yesterday';
  return (then.getFullYear() === now.getFullYear() ? weekdayFormat : weekdayYearFormat).format(
    then,
  );
}
