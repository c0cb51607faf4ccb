import type { Project, ProjectRow } from '@sitelog/shared';

/** A project as the API answers it, for component tests. */
export function makeProject(overrides: Partial<Project> = {}): Project {
  return {
    id: 7,
    name: 'Central Station Canopy Renewal',
    location: 'Munich, Germany',
    latitude: 48.1374,
    longitude: 11.5755,
    description: 'Replacing the glass canopy over platforms 11 to 14.',
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-11-20T09:30:00.000Z',
    creator: { id: 3, firstname: 'Aisha', lastname: 'Okafor' },
    uploadsCount: 0,
    lastUploads: [],
    isFavorited: false,
    isFollowed: false,
    ...overrides,
  };
}

/** An all-projects row: id, name, location, updatedAt, uploads count, creator name. */
export const makeRow = (
  id: number,
  name: string,
  location: string,
  updatedAt: string,
  uploads: number,
  creator: string,
): ProjectRow => [id, name, location, updatedAt, uploads, creator];
