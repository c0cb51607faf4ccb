import { invitationLinkSchema, type InviteRequest, type User } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/**
 * POST /api/user/invite (admins only): makes the member's account with a password nobody knows
 * and answers them with their one-time link (a path, shown once) and its expiry.
 */
export const inviteUser = (body: InviteRequest) =>
  api.post('/api/user/invite', invitationLinkSchema, body);

/** Invites a member, shows them in the admin's list at once and refreshes the team views. */
export const useInviteUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: async ({ user }) => {
      queryClient.setQueryData<User[]>(userKeys.list(), (list) =>
        list && !list.some((u) => u.id === user.id) ? [...list, user] : list,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
};
