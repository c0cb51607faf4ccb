import { projectRowsSchema, type ProjectRow } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiPaths } from '@/lib/api-paths';
import { projectKeys } from './keys';

/** One all-projects row with named fields (the API sends positional arrays, spec §3). */
export interface ProjectListItem {
  id: number;
  name: string;
  location: string;
  updatedAt: string;
  uploadsCount: number;
  creatorName: string;
}

export const toProjectListItem = ([
  id,
  name,
  location,
  updatedAt,
  uploadsCount,
  creatorName,
]: ProjectRow): ProjectListItem => ({
  id,
  name,
  location,
  updatedAt,
  uploadsCount,
  creatorName,
});

/** GET /api/project/all/list: every project as a row, newest activity first. */
export const getProjectRows = async (signal?: AbortSignal): Promise<ProjectListItem[]> => {
  const rows = await api.get(apiPaths.projectRows, projectRowsSchema, { signal });
  return rows.map(toProjectListItem);
};

export const projectRowsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.rows(),
    queryFn: ({ signal }) => getProjectRows(signal),
  });

export const useProjectRows = () => useQuery(projectRowsQueryOptions());
