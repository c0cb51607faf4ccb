import type { ReportsQuery } from '@sitelog/shared';

/** Query keys of the reports feature: one root, so a change can refresh every list at once. */
export const reportKeys = {
  all: ['reports'] as const,
  lists: () => [...reportKeys.all, 'list'] as const,
  /** `GET /api/report/latest` with these filters (the project page's section is `{ project }`). */
  list: (filters: Omit<ReportsQuery, 'before' | 'limit'>) =>
    [...reportKeys.lists(), filters] as const,
  details: () => [...reportKeys.all, 'detail'] as const,
  /** One report with its photo list (`GET /api/report/{id}`); polled while its PDF is made. */
  detail: (id: number) => [...reportKeys.details(), id] as const,
  /** A report's public links (`GET /api/report/{id}/links`). */
  links: (id: number) => [...reportKeys.all, 'links', id] as const,
  /** The team name the covers carry (`GET /api/workspace`). */
  workspace: () => [...reportKeys.all, 'workspace'] as const,
};
