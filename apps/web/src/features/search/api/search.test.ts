import { searchLimits } from '@sitelog/shared';
import { describe, expect, it } from 'vitest';
import { readSearchParams } from '../search-params';
import { searchPath, sectionRequest } from './search';

const filtersOf = (query: string) => readSearchParams(new URLSearchParams(query));
const limit = searchLimits.pageDefault;

describe('sectionRequest', () => {
  const all = filtersOf(
    'q=rebar&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true',
  );

  it('sends the reports their project, author, dates and archived, never the photos’ date basis', () => {
    expect(sectionRequest('reports', all)).toEqual({
      q: 'rebar',
      type: 'reports',
      limit,
      project: 12,
      author: 5,
      from: '2026-03-01',
      to: '2026-03-31',
      archived: true,
    });
    expect(searchPath(sectionRequest('reports', all))).toBe(
      `/api/search?q=rebar&type=reports&project=12&author=5&from=2026-03-01&to=2026-03-31&archived=true&limit=${limit}`,
    );
  });

  it('sends the photos the same and their date basis; projects and people only what narrows them', () => {
    expect(sectionRequest('uploads', all)).toEqual({
      q: 'rebar',
      type: 'uploads',
      limit,
      project: 12,
      author: 5,
      from: '2026-03-01',
      to: '2026-03-31',
      by: 'captured',
      archived: true,
    });
    expect(sectionRequest('projects', all)).toEqual({
      q: 'rebar',
      type: 'projects',
      limit,
      archived: true,
    });
    expect(sectionRequest('people', all)).toEqual({ q: 'rebar', type: 'people', limit });
  });

  it('sends the reports only the query without filters', () => {
    expect(sectionRequest('reports', filtersOf('q=slab&by=captured'))).toEqual({
      q: 'slab',
      type: 'reports',
      limit,
    });
  });
});
