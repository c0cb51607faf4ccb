import type {
  Report,
  ReportDetail,
  ReportLink,
  ReportPage,
  ReportPhoto,
  Upload,
} from '@sitelog/shared';

/** Ann Lee, who makes the reports of these tests (not the signed-in member unless told). */
export const annLee = { id: 5, firstname: 'Ann', lastname: 'Lee' };

/** A report as `GET /api/report/latest` lists it: by default ready, Ann Lee's, 3 photos. */
export function makeReport(overrides: Partial<Report> = {}): Report {
  const id = overrides.id ?? 40;
  return {
    id,
    project: { id: 12, name: 'Riverside Depot', archived: false },
    author: annLee,
    type: 'daily',
    title: 'Week 47 progress',
    from: '2026-11-16',
    to: '2026-11-20',
    layout: 2,
    photoCount: 3,
    status: 'ready',
    progress: 3,
    error: null,
    pdf: {
      link: `/media/report-${id}.pdf?sig=abc`,
      bytes: 2_516_582,
      pages: 4,
      generatedAt: '2026-11-21T10:05:00.000Z',
    },
    thumb: { uploadId: 71, previewLink: '/media/preview-71.webp?sig=abc' },
    createdAt: '2026-11-21T10:00:00.000Z',
    canManage: false,
    ...overrides,
  };
}

/** A photo of the report's project, as the API answers it. */
function makeUpload(id: number, name: string): Upload {
  return {
    id,
    name,
    description: '',
    createdAt: '2026-11-18T09:00:00.000Z',
    updatedAt: '2026-11-18T09:00:00.000Z',
    previewLink: `/media/preview-${id}.webp?sig=abc`,
    formatedLink: `/media/formatted-${id}.jpg?sig=abc`,
    formatedWidth: 1600,
    formatedHeight: 1200,
    originalLink: `/media/original-${id}.jpg?sig=abc`,
    creator: annLee,
    project: { id: 12, name: 'Riverside Depot' },
    capturedAt: null,
    latitude: null,
    longitude: null,
    camera: null,
  };
}

/** One photo of a report, there still (its upload) unless `upload: null` says it was deleted. */
export function makeReportPhoto(
  position: number,
  overrides: Partial<ReportPhoto> = {},
): ReportPhoto {
  const uploadId = 70 + position;
  return {
    position,
    uploadId,
    name: `Photo ${position}`,
    caption: `Caption ${position}`,
    sha256: `${position}`.repeat(64).slice(0, 64),
    upload: makeUpload(uploadId, `Photo ${position}`),
    ...overrides,
  };
}

/** A report as `GET /api/report/{id}` answers it. */
export function makeReportDetail(overrides: Partial<ReportDetail> = {}): ReportDetail {
  const base = makeReport(overrides);
  return {
    ...base,
    intro: 'Concrete works on level 2.\nScaffold inspected.',
    teamName: 'Lee & Sons Builders',
    timeZone: 'Europe/Berlin',
    photos: [1, 2, 3].map((position) => makeReportPhoto(position)),
    goneCount: 0,
    ...overrides,
  };
}

export const reportPage = (reports: Report[], next: number | null = null): ReportPage => ({
  reports,
  next,
});

/** A public link of a report: active, made by Ann Lee, never downloaded, unless told. */
export function makeReportLink(overrides: Partial<ReportLink> = {}): ReportLink {
  return {
    id: 900,
    reportId: 40,
    createdBy: annLee,
    createdAt: '2026-11-21T11:00:00.000Z',
    expiresAt: '2026-12-21T11:00:00.000Z',
    revokedAt: null,
    active: true,
    downloads: 0,
    lastDownloadAt: null,
    ...overrides,
  };
}
