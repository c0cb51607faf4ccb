import { projectSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { projectKeys } from './keys';

/** The four per-user toggles of the spec: bookmark (favor), unbookmark, follow, unfollow. */
export type ProjectMark = 'favor' | 'unfavor' | 'follow' | 'unfollow';

/** GET /api/project/{id}/{mark}/: idempotent; answers the project as it is now. */
export const setProjectMark = (id: number, mark: ProjectMark) =>
  api.get(`/api/project/${id}/${mark}/`, projectSchema);

/**
 * Sets a bookmark or follow. The answer is the project re-read by the server, so it replaces the
 * cached one (spec §4: the project is refetched afterwards); the lists that depend on bookmarks
 * and follows are refreshed.
 */
export const useSetProjectMark = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mark: ProjectMark) => setProjectMark(id, mark),
    onSuccess: async (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
      await queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
};
