import { describe, expect, it } from 'vitest';
import { sectionRequest, searchPath } from './api/search';
import { countFilters, readSearchParams, writeSearchParams } from './search-params';

const read = (search: string) => readSearchParams(new URLSearchParams(search));

describe('readSearchParams', () => {
  it('reads every filter the address holds', () => {
    expect(
      read(
        '?q=%20rebar%20c4%20&type=uploads&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true',
      ),
    ).toEqual({
      q: 'rebar c4',
      type: 'uploads',
      project: 12,
      author: 5,
      from: '2026-03-01',
      to: '2026-03-31',
      by: 'captured',
      archived: true,
    });
  });

  it('gives the defaults for an empty address', () => {
    expect(read('')).toEqual({
      q: '',
      type: 'all',
      project: null,
      author: null,
      from: null,
      to: null,
      by: 'uploaded',
      archived: false,
    });
  });

  it('reads a range that ends before it starts the right way round, and cuts a huge q', () => {
    expect(read('?q=rebar&from=2026-03-31&to=2026-03-01')).toMatchObject({
      from: '2026-03-01',
      to: '2026-03-31',
    });
    const long = read(`?q=${'rebar '.repeat(400)}`).q;
    expect(long.length).toBeLessThanOrEqual(1000);
    expect(long.startsWith('rebar rebar')).toBe(true);
  });

  it('leaves out what a hand-edited link spells wrongly', () => {
    expect(
      read('?type=files&project=abc&author=-3&from=2026-02-30&to=31/03/2026&by=x&archived=yes'),
    ).toMatchObject({
      type: 'all',
      project: null,
      author: null,
      from: null,
      to: null,
      by: 'uploaded',
      archived: false,
    });
    expect(read('?project=99999999999').project).toBeNull();
    // Every section the contract names is a type, reports included.
    expect(read('?type=reports').type).toBe('reports');
  });
});

describe('writeSearchParams', () => {
  it('writes changes, leaves defaults out and keeps other parameters (the viewer’s photo)', () => {
    const params = new URLSearchParams('q=rebar&photo=7&type=projects&archived=true');
    const next = writeSearchParams(params, {
      type: 'all',
      project: 12,
      from: '2026-03-01',
      by: 'captured',
      archived: false,
    });
    expect(next.toString()).toBe('q=rebar&photo=7&project=12&from=2026-03-01&by=captured');
    expect(writeSearchParams(next, { project: null, by: 'uploaded' }).toString()).toBe(
      'q=rebar&photo=7&from=2026-03-01',
    );
    // The params given are not changed.
    expect(params.toString()).toBe('q=rebar&photo=7&type=projects&archived=true');
  });

  it('reads back what it wrote', () => {
    const filters = read('?q=north+wall&type=people&author=4&to=2026-01-31&archived=true');
    expect(readSearchParams(writeSearchParams(new URLSearchParams(), filters))).toEqual(filters);
  });
});

describe('countFilters', () => {
  it('counts project, author, the date range (once) and archived', () => {
    expect(countFilters(read('?q=x&by=captured'))).toBe(0);
    expect(countFilters(read('?q=x&from=2026-01-01&to=2026-01-31&project=3'))).toBe(2);
    expect(countFilters(read('?project=3&author=4&to=2026-01-31&archived=true'))).toBe(4);
  });
});

describe('the request of each section', () => {
  const filters = read(
    '?q=rebar&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true',
  );

  it('sends the photo filters with the photos only, archived with projects and photos', () => {
    expect(searchPath({ ...sectionRequest('uploads', filters), before: 'c2' })).toBe(
      '/api/search?q=rebar&type=uploads&project=12&author=5&from=2026-03-01&to=2026-03-31&by=captured&archived=true&limit=20&before=c2',
    );
    expect(searchPath(sectionRequest('projects', filters))).toBe(
      '/api/search?q=rebar&type=projects&archived=true&limit=20',
    );
    expect(searchPath(sectionRequest('people', filters))).toBe(
      '/api/search?q=rebar&type=people&limit=20',
    );
  });

  it('sends which time the dates are by only when there are dates', () => {
    expect(searchPath(sectionRequest('uploads', read('?q=rebar&by=captured')))).toBe(
      '/api/search?q=rebar&type=uploads&limit=20',
    );
  });
});
