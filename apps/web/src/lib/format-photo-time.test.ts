import { describe, expect, it } from 'vitest';
import { formatExactTime, formatTileTime, parseApiTime } from './format-photo-time';

const now = new Date(2026, 10, 26, 15, 0);

describe('photo times', () => {
  it('gives the spec’s relative day with the time of day', () => {
    expect(formatTileTime(new Date(2026, 10, 26, 14, 32).toISOString(), now)).toMatch(
      /^today, .*(14|2):32/,
    );
    expect(formatTileTime(new Date(2026, 10, 25, 9, 5).toISOString(), now)).toMatch(
      /^yesterday, .*9:05/,
    );
    expect(formatTileTime(new Date(2026, 10, 20, 9, 5).toISOString(), now)).toMatch(
      /^6 days ago, /,
    );
  });

  it('reads a zone-less camera time as local wall-clock time', () => {
    expect(parseApiTime('2026-11-26T07:08:09')?.getHours()).toBe(7);
    expect(parseApiTime('garbage')).toBeNull();
    expect(formatTileTime('garbage', now)).toBe('');
  });

  it('writes the exact time with weekday, date, year and time', () => {
    const text = formatExactTime(new Date(2026, 10, 16, 14, 32).toISOString());
    expect(text).toMatch(/Mon/);
    expect(text).toMatch(/16/);
    expect(text).toMatch(/2026/);
    expect(formatExactTime('garbage')).toBe('garbage');
  });
});
