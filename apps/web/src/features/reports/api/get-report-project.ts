import { projectSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/**
 * GET /api/project/id/{id}: the project a report is created for (its name and whether it exists).
 * Called here rather than borrowed from the projects feature: features stay apart.
 */
export const getReportProject = (projectId: number, signal?: AbortSignal) =>
  api.get(`/api/project/id/${projectId}`, projectSchema, { signal });

export const reportProjectQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: reportKeys.creatorProject(projectId),
    queryFn: ({ signal }) => getReportProject(projectId, signal),
  });

export const useReportProject = (projectId: number | null) =>
  useQuery({ ...reportProjectQueryOptions(projectId ?? 0), enabled: projectId !== null });
