import { invitationLinkSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { applyUpdatedUser } from './user-cache';

/**
 * POST /api/user/{id}/invite (admins only): a new link for a member who has not accepted yet;
 * their older links stop working.
 */
export const reinviteUser = (id: number) =>
  api.post(`/api/user/${id}/invite`, invitationLinkSchema);

/** The NEW LINK button of a pending member in the admin's list. */
export const useReinviteUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reinviteUser,
    onSuccess: ({ user }) => applyUpdatedUser(queryClient, user),
  });
};
