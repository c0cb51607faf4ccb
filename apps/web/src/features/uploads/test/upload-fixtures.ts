import type { Project, Upload } from '@sitelog/shared';
import { afterAll, vi } from 'vitest';

/**
 * Stops the clock at noon on a fixed day for a test file whose fixtures and assertions read
 * dates as "today" or "yesterday", so a run that crosses midnight cannot change what they read.
 * Only Date is faked; timers stay real, so waiting for the page works as usual. Call it at the
 * top of the file, before any fixture is made.
 */
export function fixTheClock(now = new Date(2026, 10, 18, 12)): void {
  vi.useFakeTimers({ toFake: ['Date'], now });
  afterAll(() => {
    vi.useRealTimers();
  });
}

/** A date `days` calendar days before today, at noon local time (clear of midnight edges). */
export function daysAgo(days: number): string {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12).toISOString();
}

export function makeUpload(overrides: Partial<Upload> = {}): Upload {
  const id = overrides.id ?? 7;
  return {
    id,
    name: 'North wall rebar',
    description: 'Before the pour.',
    createdAt: daysAgo(0),
    updatedAt: daysAgo(0),
    previewLink: `/media/preview-${id}.webp?sig=abc`,
    formatedLink: `/media/formatted-${id}.jpg?sig=abc`,
    formatedWidth: 1600,
    formatedHeight: 1200,
    originalLink: `/media/original-${id}.jpg?sig=abc`,
    creator: { id: 2, firstname: 'Mia', lastname: 'Mason' },
    project: { id: 31, name: 'Harbour Bridge' },
    capturedAt: null,
    latitude: null,
    longitude: null,
    camera: null,
    ...overrides,
  };
}

export function makeProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 31,
    name: 'Harbour Bridge',
    location: 'Sydney, Australia',
    latitude: null,
    longitude: null,
    description: '',
    createdAt: daysAgo(10),
    updatedAt: daysAgo(1),
    creator: { id: 1, firstname: 'Ada', lastname: 'Admin' },
    uploadsCount: 0,
    lastUploads: [],
    isFavorited: false,
    isFollowed: false,
    ...overrides,
  };
}
