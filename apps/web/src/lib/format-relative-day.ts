const MS_PER_DAY = 86_400_000;

function startOfLocalDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/**
 * "today", "yesterday" or "N days ago" (spec §9), counted in calendar days of the viewer's time
 * zone, so a photo from 23:50 yesterday reads "yesterday" at 00:10. Dates in the future (a
 * device clock running ahead) read "today".
 */
export function formatRelativeDay(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(then.getTime())) return '';
  // Math.round absorbs the 23/25-hour days of daylight saving changes.
  const days = Math.round((startOfLocalDay(now) - startOfLocalDay(then)) / MS_PER_DAY);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  return `${days} days ago`;
}
