import {
  reportLimits,
  reportPageSchema,
  type Report,
  type ReportPage,
  type ReportType,
} from '@sitelog/shared';
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/** The filters of a list of reports: one project, one type, one author (absent: any). */
export interface ReportsFilter {
  project?: number;
  type?: ReportType;
  author?: number;
}

/** How often a list is asked again while one of its reports is still being made. */
export const REPORTS_POLL_MS = 1_500;

/** Whether the report's PDF is being made (waiting in the queue or being drawn). */
export const isInProgress = (report: Pick<Report, 'status'>) =>
  report.status === 'queued' || report.status === 'generating';

/** The filter with its unset fields left out, so `{ project: 5 }` is one cache entry however built. */
export function cleanFilter(filter: ReportsFilter): ReportsFilter {
  const clean: ReportsFilter = {};
  if (filter.project !== undefined) clean.project = filter.project;
  if (filter.type !== undefined) clean.type = filter.type;
  if (filter.author !== undefined) clean.author = filter.author;
  return clean;
}

/** `/api/report/latest?…` for a filter and the page before `before` (a report id). */
export function reportsPath(filter: ReportsFilter, before?: number): string {
  const params = new URLSearchParams();
  if (filter.project !== undefined) params.set('project', String(filter.project));
  if (filter.type !== undefined) params.set('type', filter.type);
  if (filter.author !== undefined) params.set('author', String(filter.author));
  if (before !== undefined) params.set('before', String(before));
  params.set('limit', String(reportLimits.pageDefault));
  return `/api/report/latest?${params.toString()}`;
}

/** GET /api/report/latest: one page of reports, newest first. */
export const getReports = (filter: ReportsFilter, before?: number, signal?: AbortSignal) =>
  api.get(reportsPath(filter, before), reportPageSchema, { signal });

type ReportPages = InfiniteData<ReportPage, number | undefined>;

/** Every report loaded so far, each once (a page boundary may move between two fetches). */
export function flattenReports(data: ReportPages): Report[] {
  const seen = new Set<number>();
  return data.pages
    .flatMap((page) => page.reports)
    .filter((report) => !seen.has(report.id) && Boolean(seen.add(report.id)));
}

/**
 * The reports for a filter, page after page by the `next` cursor, read as one list. While any
 * report loaded is queued or being made the list is asked again every REPORTS_POLL_MS, so its
 * progress moves and it turns ready on screen; the polling stops once none is. The project
 * page's section reads the same entry (`{ project }`) as `/reports?project=`.
 */
export const reportsInfiniteOptions = (filter: ReportsFilter) => {
  const clean = cleanFilter(filter);
  return infiniteQueryOptions({
    queryKey: reportKeys.list(clean),
    queryFn: ({ pageParam, signal }) => getReports(clean, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: ReportPage) => last.next ?? undefined,
    select: flattenReports,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.reports.some(isInProgress))
        ? REPORTS_POLL_MS
        : false,
  });
};

export const useReports = (filter: ReportsFilter) =>
  useInfiniteQuery(reportsInfiniteOptions(filter));
