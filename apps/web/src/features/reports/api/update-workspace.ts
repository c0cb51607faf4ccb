import { workspaceSchema, type WorkspacePatch } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportKeys } from './keys';

/** PATCH /api/workspace `{ teamName }` (admins): answers the workspace as it is now. */
export const updateWorkspace = (patch: WorkspacePatch) =>
  api.patch('/api/workspace', workspaceSchema, patch);

/** Saves the team name new report covers carry; the cached workspace takes the answer. */
export const useUpdateWorkspace = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkspace,
    onSuccess: (workspace) => queryClient.setQueryData(reportKeys.workspace(), workspace),
  });
};
