import { projectSchema, type Project } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { projectKeys } from './keys';

/** POST /api/project/{id}/restore: the creator or an admin restores it; answers the project. */
export const restoreProject = (id: number) => api.post(`/api/project/${id}/restore`, projectSchema);

/**
 * Restores an archived project: its cache entry takes the answer, every project list is
 * refreshed (it is back in them and leaves the archived list), and so is whatever else the
 * caller names.
 */
export const useRestoreProject = (
  id: number,
  { invalidate }: { invalidate?: ExtraInvalidations<Project, void> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => restoreProject(id),
    onSuccess: async (project, input) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await invalidateKeys(queryClient, [
        projectKeys.lists(),
        ...extraKeys(invalidate, project, input),
      ]);
    },
  });
};
