import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { readLoginRedirectState, returnPath, type LoginRedirectState } from '@/lib/login-redirect';
import { paths } from '@/lib/paths';
import { useSession, useSessionSnapshot } from '@/lib/session';

function toFrom(location: ReturnType<typeof useLocation>): LoginRedirectState['from'] {
  return { pathname: location.pathname, search: location.search, hash: location.hash };
}

/**
 * Signed-out users go to /login, which brings them back here after signing in, unless they
 * just logged out on purpose (then they start again from Home).
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { session, endedBy } = useSessionSnapshot();
  const location = useLocation();
  if (!session) {
    const state: LoginRedirectState | undefined =
      endedBy === 'logout' ? undefined : { from: toFrom(location) };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return children ?? <Outlet />;
}

/** Spec §5: the admin route sends non-admins to login (where an admin may sign in). */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session?.user.isAdmin) {
    const state: LoginRedirectState = { from: toFrom(location), adminRequired: true };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return children ?? <Outlet />;
}

/**
 * /login is for signed-out users: anyone signed in moves on to where they were heading (Home by
 * default). The one exception is a member sent here by the admin guard, who may sign in as an admin.
 */
export function RedirectIfSignedIn({ children }: { children?: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const state = readLoginRedirectState(location.state);
  if (session && !(state.adminRequired && !session.user.isAdmin)) {
    return <Navigate to={returnPath(state)} replace />;
  }
  return children ?? <Outlet />;
}
