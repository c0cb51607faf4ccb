import { projectMuteSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

export interface ProjectMuteChange {
  projectId: number;
  muted: boolean;
}

/** POST /api/project/{id}/mute or /unmute: idempotent; answers whether it is muted now. */
export const setProjectMute = ({ projectId, muted }: ProjectMuteChange) =>
  api.post(`/api/project/${projectId}/${muted ? 'mute' : 'unmute'}`, projectMuteSchema);

/**
 * Mutes or unmutes a project's notifications: the project's state takes the answer, and the
 * settings (which list the muted projects) are refreshed.
 */
export const useSetProjectMute = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProjectMute,
    onSuccess: async (answer, { projectId }) => {
      queryClient.setQueryData(notificationKeys.mute(projectId), answer);
      await queryClient.invalidateQueries({ queryKey: notificationKeys.settings() });
    },
  });
};
