import { userSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { applyUpdatedUser } from './user-cache';

/** DELETE /api/user/{id} (admins only): deactivates the member and answers them updated. */
export const deactivateUser = (id: number) => api.delete(`/api/user/${id}`, userSchema);

/** The X button of the admin's list. */
export const useDeactivateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateUser,
    onSuccess: (user) => applyUpdatedUser(queryClient, user),
  });
};
