import type { Report } from '@sitelog/shared';

/** A report as the API answers it (a search hit), for component tests. */
export function makeReport(overrides: Partial<Report> = {}): Report {
  return {
    id: 31,
    project: { id: 11, name: 'Rebar yard', archived: false },
    author: { id: 5, firstname: 'Rebecca', lastname: 'Stone' },
    type: 'daily',
    title: 'Rebar delivery, level 2',
    from: '2026-03-02',
    to: '2026-03-06',
    layout: 2,
    photoCount: 12,
    status: 'ready',
    progress: 12,
    error: null,
    pdf: {
      link: '/media/reports/31.pdf?sig=x',
      bytes: 2_400_000,
      pages: 8,
      generatedAt: '2026-03-06T16:05:00.000Z',
    },
    thumb: { uploadId: 21, previewLink: '/media/preview/21.jpg?sig=x' },
    createdAt: '2026-03-06T16:00:00.000Z',
    canManage: false,
    ...overrides,
  };
}
