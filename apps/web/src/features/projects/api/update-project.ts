import { projectSchema, type Project, type ProjectInput } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { extraKeys, invalidateKeys, type ExtraInvalidations } from '@/lib/invalidate';
import { projectKeys } from './keys';

/** PATCH /api/project/update/{id}: the creator edits name, location and description. */
export const updateProject = (id: number, project: ProjectInput) =>
  api.patch(`/api/project/update/${id}`, projectSchema, { project });

/**
 * Saves the project: its one cache entry takes the answer (so every screen reading it through
 * useProject shows the new name at once), the project lists are refreshed, and so is whatever
 * else the caller names (other features' views that show the project's name).
 */
export const useUpdateProject = (
  id: number,
  { invalidate }: { invalidate?: ExtraInvalidations<Project, ProjectInput> } = {},
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: ProjectInput) => updateProject(id, project),
    onSuccess: async (project, input) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await invalidateKeys(queryClient, [
        projectKeys.lists(),
        ...extraKeys(invalidate, project, input),
      ]);
    },
  });
};
