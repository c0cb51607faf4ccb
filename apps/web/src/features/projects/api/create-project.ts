import { projectSchema, type CreateProjectRequest } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** POST /api/project/create: answers the new project (with its id). */
export const createProject = (body: CreateProjectRequest) =>
  api.post('/api/project/create', projectSchema, body);

/** Creates a project, caches it for its page and refreshes every project list. */
export const useCreateProject = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: async (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
};
