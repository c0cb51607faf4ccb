import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format-date';
import { makeReport } from '../test/make-report';
import { useHighlighter } from './highlight';
import { formatDays, ReportResults, reportStatusText } from './report-results';
import type { Report } from '@sitelog/shared';

function Results({ reports, query }: { reports: Report[]; query: string }) {
  const mark = useHighlighter(query);
  return <ReportResults reports={reports} renderText={mark} />;
}

const renderResults = (reports: Report[], query = 'reba') =>
  render(
    <MemoryRouter>
      <Results reports={reports} query={query} />
    </MemoryRouter>,
  );

describe('ReportResults', () => {
  it('shows each report’s title (a link to its page), type, project, author, day, photos and status', () => {
    renderResults([
      makeReport(),
      makeReport({
        id: 32,
        type: 'safety',
        title: 'Scaffold walk',
        project: { id: 12, name: 'Old store', archived: true },
        author: { id: 6, firstname: 'Marek', lastname: 'Nowak' },
        photoCount: 1,
        status: 'generating',
        progress: 0,
        pdf: null,
        thumb: null,
      }),
    ]);
    const list = screen.getByRole('list', { name: 'Reports found' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);

    const first = items[0]!;
    const link = within(first).getByRole('link', { name: 'Rebar delivery, level 2' });
    expect(link).toHaveAttribute('href', '/report/31');
    expect(within(first).getByRole('heading', { level: 3 })).toHaveTextContent(
      'Rebar delivery, level 2',
    );
    expect(first).toHaveTextContent('Daily site report · Rebar yard');
    expect(first).toHaveTextContent(
      `By Rebecca Stone · Made ${formatDate('2026-03-06T16:00:00.000Z')} · 12 photos`,
    );
    expect(first.querySelector('time')).toHaveAttribute('datetime', '2026-03-06T16:00:00.000Z');
    expect(first).toHaveTextContent(`Covers ${formatDays('2026-03-02', '2026-03-06')}`);
    expect(first).toHaveTextContent('PDF ready');
    expect(first.querySelector('img')).toHaveAttribute('src', '/media/preview/21.jpg?sig=x');
    expect(within(first).queryByText('Archived')).not.toBeInTheDocument();

    const second = items[1]!;
    expect(within(second).getByRole('link', { name: 'Scaffold walk' })).toHaveAttribute(
      'href',
      '/report/32',
    );
    expect(second).toHaveTextContent('Safety walk · Old store');
    expect(within(second).getByText('Archived')).toBeInTheDocument();
    expect(second).toHaveTextContent('By Marek Nowak');
    expect(second).toHaveTextContent('1 photo');
    expect(second).not.toHaveTextContent('1 photos');
    expect(second).toHaveTextContent('Being made: 0 of 1 photo');
    // No photo left to show: an icon, no image.
    expect(second.querySelector('img')).toBeNull();
  });

  it('marks the searched words in the title, type, project and author', () => {
    renderResults([makeReport()], 'reba daily stone');
    const item = screen.getByRole('listitem');
    expect([...item.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      // title, type, project, author
      'Reba',
      'Daily',
      'Reba',
      'Stone',
    ]);
    // The link's name is the whole title, marks and all.
    expect(screen.getByRole('link')).toHaveAccessibleName('Rebar delivery, level 2');
  });

  it('shows hostile titles and names as text', () => {
    const hostile = '<img src=x onerror=alert(1)> rebar';
    renderResults([
      makeReport({
        title: hostile,
        project: { id: 1, name: '<b>Bold</b>', archived: false },
        thumb: null,
      }),
    ]);
    const item = screen.getByRole('listitem');
    expect(within(item).getByRole('link')).toHaveTextContent(hostile);
    expect(item).toHaveTextContent('<b>Bold</b>');
    expect(item.querySelector('img')).toBeNull();
    expect(item.querySelector('b')).toBeNull();
  });
});

describe('formatDays', () => {
  it('writes the days a report covers as calendar days, one day once', () => {
    const day = (y: number, m: number, d: number) =>
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y, m - 1, d));
    expect(formatDays('2026-03-02', '2026-03-06')).toBe(`${day(2026, 3, 2)} – ${day(2026, 3, 6)}`);
    expect(formatDays('2026-01-01', '2026-01-01')).toBe(day(2026, 1, 1));
  });
});

describe('reportStatusText', () => {
  const pdf = makeReport().pdf;
  it.each([
    [{ status: 'ready', progress: 12, photoCount: 12, pdf }, 'PDF ready'],
    [{ status: 'queued', progress: 0, photoCount: 12, pdf: null }, 'Queued'],
    [{ status: 'queued', progress: 0, photoCount: 12, pdf }, 'PDF ready · a new one is queued'],
    [
      { status: 'generating', progress: 5, photoCount: 12, pdf: null },
      'Being made: 5 of 12 photos',
    ],
    [
      { status: 'generating', progress: 5, photoCount: 12, pdf },
      'PDF ready · a new one is being made: 5 of 12 photos',
    ],
    [
      { status: 'failed', progress: 3, photoCount: 12, pdf: null },
      'Failed: open the report to see why',
    ],
    [
      { status: 'failed', progress: 3, photoCount: 12, pdf },
      'PDF ready · the new one failed: open the report to see why',
    ],
  ] as const)('%j → %s', (report, text) => {
    expect(reportStatusText(report)).toBe(text);
  });
});
