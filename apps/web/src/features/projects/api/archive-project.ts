import { projectSchema, type Project } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { projectKeys } from './keys';

/** POST /api/project/{id}/archive: the creator or an admin archives it; answers the project. */
export const archiveProject = (id: number) => api.post(`/api/project/${id}/archive`, projectSchema);

/**
 * Archives the project: its one cache entry takes the answer (the page shows it archived at
 * once), every project list is refreshed (it leaves them, and joins the archived list), and so
 * is whatever else the caller names (other features' views of the project and its photos).
 */
export const useArchiveProject = (
  id: number,
  { invalidate }: { invalidate?: ExtraInvalidations<Project, void> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => archiveProject(id),
    onSuccess: async (project, input) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await invalidateKeys(queryClient, [
        projectKeys.lists(),
        ...extraKeys(invalidate, project, input),
      ]);
    },
  });
};
