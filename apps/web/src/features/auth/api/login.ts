import { loginResponseSchema, type LoginRequest } from '@sitelog/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getToken, startSession } from '@/lib/session';
import { logout } from './logout';

/** POST /api/auth/login. Sent without a token: a failed login must not end another session. */
export const login = (body: LoginRequest) =>
  api.post('/api/auth/login', loginResponseSchema, body, { token: null });

/** Signs in and stores the session; the sign-in guards then move the user on. */
export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: (response) => {
      const previousToken = getToken();
      startSession(response);
      // Signing in over another session (an admin after a member was sent here): close the old one.
      if (previousToken && previousToken !== response.token)
        logout(previousToken).catch(() => undefined);
    },
  });
