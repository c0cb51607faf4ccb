import { okResponseSchema } from '@sitelog/shared';
import { useCallback } from 'react';
import { api } from '@/lib/api-client';
import { endSession, getToken } from '@/lib/session';

/** POST /api/auth/logout for the given token. */
export const logout = (token: string) =>
  api.post('/api/auth/logout', okResponseSchema, undefined, { token });

/**
 * Ends the session here at once and tells the server; a failed logout call changes nothing for
 * the user (the token is forgotten either way). The sign-in guard then shows /login.
 */
export function useLogout(): () => void {
  return useCallback(() => {
    const token = getToken();
    endSession('logout');
    if (token) logout(token).catch(() => undefined);
  }, []);
}
