import { describe, expect, it } from 'vitest';
import { formatDayHeading, formatTimeAgo, localDayKey } from './activity-time';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);
const iso = (date: Date) => date.toISOString();

describe('time ago', () => {
  const now = at(2026, 11, 23, 15, 30);

  it('reads minutes and hours today, then calendar days, then the date', () => {
    expect(formatTimeAgo(iso(at(2026, 11, 23, 15, 29)), now)).toBe('1 minute ago');
    expect(formatTimeAgo(iso(new Date(now.getTime() - 20_000)), now)).toBe('just now');
    expect(formatTimeAgo(iso(at(2026, 11, 23, 15, 5)), now)).toBe('25 minutes ago');
    expect(formatTimeAgo(iso(at(2026, 11, 23, 9, 0)), now)).toBe('6 hours ago');
    expect(formatTimeAgo(iso(at(2026, 11, 22, 23, 50)), now)).toBe('yesterday');
    expect(formatTimeAgo(iso(at(2026, 11, 19, 10)), now)).toBe('4 days ago');
    expect(formatTimeAgo(iso(at(2026, 11, 2, 10)), now)).toBe('Nov 2, 2026');
  });

  it('reads a time ahead of the clock as just now, and nothing for a bad one', () => {
    expect(formatTimeAgo(iso(at(2026, 11, 23, 16)), now)).toBe('just now');
    expect(formatTimeAgo('not a date', now)).toBe('');
  });
});

describe('day headings', () => {
  const now = at(2026, 11, 23, 0, 10);

  it('says Today and Yesterday, then the weekday and date (the year when not this one)', () => {
    expect(formatDayHeading(iso(at(2026, 11, 23, 0, 5)), now)).toBe('Today');
    expect(formatDayHeading(iso(at(2026, 11, 22, 23, 55)), now)).toBe('Yesterday');
    expect(formatDayHeading(iso(at(2026, 11, 16, 9)), now)).toBe('Monday, November 16');
    expect(formatDayHeading(iso(at(2025, 12, 31, 9)), now)).toBe('Wednesday, December 31, 2025');
  });

  it("keys a moment by the viewer's calendar day", () => {
    expect(localDayKey(iso(at(2026, 1, 5, 23, 59)))).toBe('2026-01-05');
    expect(localDayKey(iso(at(2026, 1, 6, 0, 1)))).toBe('2026-01-06');
  });
});
