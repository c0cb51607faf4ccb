import { okResponseSchema, type ChangePasswordRequest } from '@sitelog/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST /api/auth/password: replaces the signed-in user's password. The server ends the user's
 * other sessions; this one stays signed in.
 */
export const changePassword = (body: ChangePasswordRequest) =>
  api.post('/api/auth/password', okResponseSchema, body);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
