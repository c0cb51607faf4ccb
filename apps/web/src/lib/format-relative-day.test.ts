import { describe, expect, it } from 'vitest';
import { formatRelativeDay } from './format-relative-day';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);

describe('formatRelativeDay', () => {
  const now = at(2025, 3, 15, 9, 30);

  it('says today for a date earlier the same day', () => {
    expect(formatRelativeDay(at(2025, 3, 15, 0, 5), now)).toBe('today');
  });

  it('says yesterday for the previous calendar day, even less than 24 hours ago', () => {
    expect(formatRelativeDay(at(2025, 3, 14, 23, 50), now)).toBe('yesterday');
    expect(formatRelativeDay(at(2025, 3, 14, 0, 1), now)).toBe('yesterday');
  });

  it('counts calendar days for older dates', () => {
    expect(formatRelativeDay(at(2025, 3, 13, 23, 59), now)).toBe('2 days ago');
    expect(formatRelativeDay(at(2025, 2, 15, 10), now)).toBe('28 days ago');
    expect(formatRelativeDay(at(2024, 3, 15, 10), now)).toBe('365 days ago');
  });

  it('accepts ISO strings as sent by the API', () => {
    expect(formatRelativeDay(at(2025, 3, 12, 8).toISOString(), now)).toBe('3 days ago');
  });

  it('reads today for a date in the future (device clock ahead)', () => {
    expect(formatRelativeDay(at(2025, 3, 16, 8), now)).toBe('today');
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatRelativeDay('not a date', now)).toBe('');
  });

  it('counts across a daylight saving change', () => {
    // Spans late March and late October, when many time zones shift by an hour.
    expect(formatRelativeDay(at(2025, 3, 20, 12), at(2025, 4, 5, 12))).toBe('16 days ago');
    expect(formatRelativeDay(at(2025, 10, 20, 12), at(2025, 11, 5, 12))).toBe('16 days ago');
  });
});
