const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "Nov 22, 2026" in the viewer's locale; empty for an unreadable date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** "Nov 22, 2026, 2:05 PM" in the viewer's locale and time zone; empty for an unreadable date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}
