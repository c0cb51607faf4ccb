import { projectSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** GET /api/project/id/{id}: one project as the signed-in user sees it. */
export const getProject = (id: number, signal?: AbortSignal) =>
  api.get(`/api/project/id/${id}`, projectSchema, { signal });

export const projectQueryOptions = (id: number) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: ({ signal }) => getProject(id, signal),
  });

/**
 * The one place any page reads a project from, so every screen showing it shares one cache entry
 * (a rename shows everywhere). Nothing is asked while the id is null (not a valid id).
 */
export const useProject = (id: number | null) =>
  useQuery({ ...projectQueryOptions(id ?? 0), enabled: id !== null });
