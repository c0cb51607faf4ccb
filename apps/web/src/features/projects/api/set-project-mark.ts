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
 * Sets a bookmark or follow. The answer (the project as the server now has it) is shown at once;
 * then the project is refetched (spec §4), so two toggles answered out of order still end on the
 * server's state, and the lists that depend on bookmarks and follows are refreshed.
 */
export const useSetProjectMark = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mark: ProjectMark) => setProjectMark(id, mark),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
      ]);
    },
  });
};
