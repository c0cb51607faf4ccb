import {
  searchLimits,
  searchResponseSchema,
  type Profile,
  type Project,
  type Report,
  type SearchResponse,
  type SearchType,
  type Upload,
} from '@sitelog/shared';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
} from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { SearchFilters, SearchSection } from '../search-params';
import { searchKeys } from './keys';

/** GET /api/search's parameters, as sent (only those that narrow the asked section). */
export interface SearchRequest {
  q: string;
  type: SearchType;
  project?: number;
  author?: number;
  from?: string;
  to?: string;
  by?: 'captured';
  archived?: true;
  limit: number;
  before?: string;
}

/** `/api/search?…` for a request, its parameters in a fixed order. */
export function searchPath(request: SearchRequest): string {
  const params = new URLSearchParams();
  for (const key of [
    'q',
    'type',
    'project',
    'author',
    'from',
    'to',
    'by',
    'archived',
    'limit',
    'before',
  ] as const) {
    const value = request[key];
    if (value !== undefined) params.set(key, String(value));
  }
  return `/api/search?${params.toString()}`;
}

/**
 * GET /api/search: the matching projects, photos, people and reports (one section, or the first
 * page of each).
 */
export const getSearch = (request: SearchRequest, signal?: AbortSignal) =>
  api.get(searchPath(request), searchResponseSchema, { signal });

/** The top bar's dropdown: the first few matches of every section. */
export const typeAheadQueryOptions = (q: string) =>
  queryOptions({
    queryKey: searchKeys.typeAhead(q),
    queryFn: ({ signal }) => getSearch({ q, type: 'all', limit: searchLimits.typeAhead }, signal),
    // A failed suggestion is shown at once; the next key typed asks again anyway.
    retry: false,
  });

/** The dropdown's matches for `q` (debounced by the caller); the last answer stays while typing. */
export const useTypeAhead = (q: string, enabled: boolean) =>
  useQuery({ ...typeAheadQueryOptions(q), enabled, placeholderData: keepPreviousData });

/**
 * The request for one section: the query, and only the filters that narrow that section (project,
 * author and dates the photos and the reports, which time of a photo the dates mean the photos
 * alone, archived projects all but people), so changing a photo filter does not search projects
 * again, nor the photos' date basis the reports.
 */
export function sectionRequest(
  section: SearchSection,
  filters: SearchFilters,
): Omit<SearchRequest, 'before'> {
  const request: Omit<SearchRequest, 'before'> = {
    q: filters.q,
    type: section,
    limit: searchLimits.pageDefault,
  };
  if (section !== 'people' && filters.archived) request.archived = true;
  if (section === 'uploads' || section === 'reports') {
    if (filters.project !== null) request.project = filters.project;
    if (filters.author !== null) request.author = filters.author;
    if (filters.from !== null) request.from = filters.from;
    if (filters.to !== null) request.to = filters.to;
  }
  if (
    section === 'uploads' &&
    filters.by === 'captured' &&
    (filters.from !== null || filters.to !== null)
  )
    request.by = 'captured';
  return request;
}

interface SectionItems {
  projects: Project;
  uploads: Upload;
  people: Profile;
  reports: Report;
}

/**
 * One section as an infinite query: each page asks for the page after the last one's `next`
 * cursor (keyset paging), while there is one. The pages read as one list.
 */
export function searchSectionInfiniteOptions<S extends SearchSection>(
  section: S,
  filters: SearchFilters,
) {
  const request = sectionRequest(section, filters);
  return infiniteQueryOptions({
    queryKey: searchKeys.section(request),
    queryFn: ({ pageParam, signal }) => getSearch({ ...request, before: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: SearchResponse) => last[section]?.next ?? undefined,
    select: (data: InfiniteData<SearchResponse, string | undefined>) =>
      data.pages.flatMap((page): SectionItems[S][] => {
        const items: readonly unknown[] = page[section]?.items ?? [];
        return items as SectionItems[S][];
      }),
  });
}

/** One section's results for the page's filters; asks nothing while `enabled` is false. */
export const useSearchSection = <S extends SearchSection>(
  section: S,
  filters: SearchFilters,
  enabled: boolean,
) => useInfiniteQuery({ ...searchSectionInfiniteOptions(section, filters), enabled });
