/*
 * Days as the report creator handles them: "YYYY-MM-DD" strings in one IANA time zone (the
 * browser's, sent with the report as `timeZone`), compared as text.
 */

/** The browser's IANA time zone ("Europe/Berlin"): the report's times are written in it. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The day (YYYY-MM-DD) an instant falls on in `timeZone`; null for an unreadable time. */
export function dayIn(instant: Date | string, timeZone: string): string | null {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return null;
  const parts = Object.fromEntries(
    dayFormat(timeZone)
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Today in `timeZone`. */
export const todayIn = (timeZone: string, now: Date = new Date()): string =>
  dayIn(now, timeZone) ?? now.toISOString().slice(0, 10);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real day written YYYY-MM-DD (what a date field holds, or ''). */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

// en-GB: "26 Nov 2026", day before month, the same on every screen and in the PDF's title.
const shortDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "26 Nov 2026" for "2026-11-26" (the day itself, whatever the zone). */
export function formatDay(day: string): string {
  return isDay(day) ? shortDate.format(new Date(`${day}T00:00:00Z`)) : day;
}

const dayParts = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, date };
};
const monthName = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/**
 * "26 Nov 2026", "24–26 Nov 2026", "30 Nov – 2 Dec 2026", "30 Dec 2026 – 2 Jan 2027": a range
 * of days, each part said once. Spelled out here rather than by `formatRange`, whose spacing
 * differs between ICU versions: the title it makes is the same in every browser.
 */
export function formatDayRange(from: string, to: string): string {
  if (!isDay(from) || !isDay(to)) return [from, to].filter(Boolean).join(' – ');
  if (from === to) return formatDay(from);
  const [start, end] = from <= to ? [from, to] : [to, from];
  const a = dayParts(start);
  const b = dayParts(end);
  if (a.year !== b.year) return `${formatDay(start)} – ${formatDay(end)}`;
  if (a.month !== b.month)
    return `${a.date} ${monthName(start)} – ${b.date} ${monthName(end)} ${b.year}`;
  return `${a.date}–${b.date} ${monthName(end)} ${b.year}`;
}
