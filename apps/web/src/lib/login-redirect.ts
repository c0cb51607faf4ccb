import type { Location } from 'react-router';

/** What the guards tell /login: where to return after signing in, and why the user is there. */
export interface LoginRedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  /** Sent by the admin guard: the page needs an admin account (spec §5). */
  adminRequired?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Reads history state defensively: it survives reloads and may hold anything. */
export function readLoginRedirectState(state: unknown): LoginRedirectState {
  if (!isRecord(state)) return {};
  const result: LoginRedirectState = {};
  const from = state.from;
  if (isRecord(from) && typeof from.pathname === 'string' && from.pathname.startsWith('/')) {
    result.from = {
      pathname: from.pathname,
      search: typeof from.search === 'string' ? from.search : '',
      hash: typeof from.hash === 'string' ? from.hash : '',
    };
  }
  if (state.adminRequired === true) result.adminRequired = true;
  return result;
}

/** Where to go once signed in: back where the user was heading, else Home. */
export function returnPath(state: LoginRedirectState): string {
  const from = state.from;
  if (!from || from.pathname === '/login') return '/';
  return `${from.pathname}${from.search}${from.hash}`;
}
