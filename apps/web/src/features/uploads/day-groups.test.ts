import { describe, expect, it } from 'vitest';
import { basisLabel, dayLabel, groupByDay } from './day-groups';

const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min);
const now = at(2026, 11, 26, 9, 30);

/** An upload as the feed has it: uploaded at `uploaded`, taken at `taken` (camera wall clock). */
const upload = (id: number, uploaded: Date, taken: string | null = null) => ({
  id,
  createdAt: uploaded.toISOString(),
  capturedAt: taken,
});

describe('dayLabel', () => {
  it('names today and yesterday, then the weekday and date, with the year only when another', () => {
    expect(dayLabel(at(2026, 11, 26, 0, 1), now)).toBe('Today');
    expect(dayLabel(at(2026, 11, 25, 23, 59), now)).toBe('Yesterday');
    expect(dayLabel(at(2026, 11, 16), now)).toBe('Mon 16 Nov');
    expect(dayLabel(at(2025, 11, 16), now)).toBe('Sun 16 Nov 2025');
  });
});

describe('groupByDay', () => {
  it('files a photo under the day it was taken, else the day it was uploaded, and says which', () => {
    const groups = groupByDay(
      [
        upload(3, at(2026, 11, 26, 9), '2026-11-26T08:55:00'),
        upload(2, at(2026, 11, 26, 8)),
        // Uploaded today, taken three days ago: under that day.
        upload(1, at(2026, 11, 26, 7), '2026-11-23T16:00:00'),
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.basis, g.uploads.map((u) => u.id)])).toEqual([
      ['Today', 'mixed', [3, 2]],
      ['Mon 23 Nov', 'taken', [1]],
    ]);
  });

  it('keeps the feed order: a day that comes back later starts a run of its own', () => {
    const groups = groupByDay(
      [
        upload(3, at(2026, 11, 26, 9)),
        upload(2, at(2026, 11, 26, 8), '2026-11-20T10:00:00'),
        upload(1, at(2026, 11, 26, 7)),
      ],
      now,
    );
    expect(groups.map((g) => g.uploads.map((u) => u.id))).toEqual([[3], [2], [1]]);
    expect(groups.map((g) => g.basis)).toEqual(['uploaded', 'taken', 'uploaded']);
  });

  it('reads a capture time in UTC in the viewer’s zone and an unreadable one as absent', () => {
    const groups = groupByDay([upload(1, at(2026, 11, 26, 9), 'not a date')], now);
    expect(groups[0]?.basis).toBe('uploaded');
    expect(groups[0]?.label).toBe('Today');
  });

  it('is empty for an empty feed', () => {
    expect(groupByDay([], now)).toEqual([]);
  });
});

describe('basisLabel', () => {
  it('says what the heading counts by', () => {
    expect(basisLabel('taken')).toBe('by capture time');
    expect(basisLabel('uploaded')).toBe('by upload time');
    expect(basisLabel('mixed')).toMatch(/capture time, or upload time/);
  });
});
