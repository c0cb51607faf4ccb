import { projectSchema, type ProjectInput } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** PATCH /api/project/update/{id}: the creator edits name, location and description. */
export const updateProject = (id: number, project: ProjectInput) =>
  api.patch(`/api/project/update/${id}`, projectSchema, { project });

export const useUpdateProject = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (project: ProjectInput) => updateProject(id, project),
    onSuccess: async (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
};
