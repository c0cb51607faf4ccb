import { projectMuteSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** GET /api/project/{id}/mute: whether the member muted this project's notifications. */
export const getProjectMute = (projectId: number, signal?: AbortSignal) =>
  api.get(`/api/project/${projectId}/mute`, projectMuteSchema, { signal });

export const projectMuteQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: notificationKeys.mute(projectId),
    queryFn: ({ signal }) => getProjectMute(projectId, signal),
  });

export const useProjectMute = (projectId: number) => useQuery(projectMuteQueryOptions(projectId));
