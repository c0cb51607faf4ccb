const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const fullTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });
const shortDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When a comment was written, as a thread says it: "just now", "5 minutes ago", "3 hours ago",
 * "yesterday", "4 days ago", then the date. A clock running ahead reads "just now".
 */
export function formatCommentTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const ago = now - then;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relative.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relative.format(-Math.floor(ago / DAY), 'day');
  return shortDate.format(then);
}

/** The full date and time (the relative time's title). */
export function formatCommentFullTime(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : fullTime.format(then);
}
