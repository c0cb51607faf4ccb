import { userSchema, type CreateUserRequest, type User } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userKeys } from './keys';

/** POST /api/user/create (admins only): answers the new member. */
export const createUser = (body: CreateUserRequest) =>
  api.post('/api/user/create', userSchema, body);

/** Creates a member, shows them in the admin's list at once and refreshes the team views. */
export const useCreateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: async (user) => {
      queryClient.setQueryData<User[]>(userKeys.list(), (list) =>
        list && !list.some((u) => u.id === user.id) ? [...list, user] : list,
      );
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
};
