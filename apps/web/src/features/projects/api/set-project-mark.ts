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
 * Sets a bookmark or follow. The answer (the project as the server now has it) is shown at once,
 * and the call ends there: the button takes the next press at once. Then the project is refetched
 * (spec §4) and the lists that depend on bookmarks and follows are refreshed, without holding the
 * button; a later toggle's refetch cancels an earlier one still running, so the page ends on the
 * server's state.
 */
export const useSetProjectMark = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mark: ProjectMark) => setProjectMark(id, mark),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project);
    },
    onSettled: () => {
      // Not awaited: waiting for the refetches kept the button ignoring presses after the answer.
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
};
