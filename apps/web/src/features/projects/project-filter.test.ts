import { describe, expect, it } from 'vitest';
import type { ProjectListItem } from './api/get-project-rows';
import { createProjectFilter } from './project-filter';

const item = (
  id: number,
  name: string,
  location: string,
  creatorName: string,
): ProjectListItem => ({
  id,
  name,
  location,
  creatorName,
  updatedAt: '2026-11-01T10:00:00.000Z',
  uploadsCount: 0,
});

const items = [
  item(12, 'Riverside Block C', 'Zürich, Switzerland', 'Aisha Okafor'),
  item(7, 'Central Station Canopy', 'Munich, Germany', 'Marco Rossi'),
  item(31, 'Harbourfront Fit-out', 'Rotterdam, Netherlands', 'Aisha Okafor'),
];
const ids = (query: string) => createProjectFilter(items)(query).map((p) => p.id);

describe('createProjectFilter', () => {
  it('answers every project, in order, for an empty or blank query', () => {
    expect(ids('')).toEqual([12, 7, 31]);
    expect(ids('   ')).toEqual([12, 7, 31]);
  });

  it('matches name, location and creator without regard to case or accents', () => {
    expect(ids('zurich')).toEqual([12]);
    expect(ids('CANOPY')).toEqual([7]);
    expect(ids('okafor')).toEqual([12, 31]);
  });

  it('needs every word, in any field', () => {
    expect(ids('aisha rotterdam')).toEqual([31]);
    expect(ids('aisha munich')).toEqual([]);
  });

  it('matches the project number', () => {
    expect(ids('31')).toEqual([31]);
  });
});
