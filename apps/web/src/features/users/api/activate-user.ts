import { userSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { applyUpdatedUser } from './user-cache';

/** GET /api/user/{id}/activate (admins only): reactivates the member and answers them updated. */
export const activateUser = (id: number) => api.get(`/api/user/${id}/activate`, userSchema);

/** The ACTIVATE button of the admin's list. */
export const useActivateUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateUser,
    onSuccess: (user) => applyUpdatedUser(queryClient, user),
  });
};
