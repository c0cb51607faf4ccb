import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useMe } from '@/features/auth/api/get-me';
import { getToken, subscribeSession, updateSessionUser, useSession } from '@/lib/session';

/**
 * Keeps the stored session and the rest of the app in step:
 * - a change of session (login, logout, a 401, another tab) drops every cached answer, so one
 *   user never sees another user's data;
 * - on start the stored user record is checked against GET /api/auth/me (an expired token
 *   answers 401, which ends the session; a changed name or role is picked up).
 * Components read the session with `useSession()` from `@/lib/session`.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSession();

  useEffect(() => {
    let lastToken = getToken();
    return subscribeSession(() => {
      const token = getToken();
      if (token === lastToken) return;
      lastToken = token;
      queryClient.clear();
    });
  }, [queryClient]);

  const me = useMe({ enabled: session !== null });
  useEffect(() => {
    if (me.data) updateSessionUser(me.data);
  }, [me.data]);

  return children;
}
