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

const PROBE_ORIGIN = 'https://sitelog.invalid';

/**
 * True for a path on this origin: one leading `/` (not `//host` or `/\host`, which browsers
 * read as another host), no backslash or control character (URL parsing drops tabs and line
 * breaks, so `/\t/host` is `//host`), and it resolves to our own origin.
 */
function isSameOriginPath(value: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (!/^\/(?![/\\])/.test(value) || /[\\\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    return new URL(value, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}

/**
 * Reads history state defensively: it survives reloads and may hold anything. A return-to that
 * is not a same-origin path is dropped (the user lands on Home).
 */
export function readLoginRedirectState(state: unknown): LoginRedirectState {
  if (!isRecord(state)) return {};
  const result: LoginRedirectState = {};
  const from = state.from;
  if (isRecord(from) && typeof from.pathname === 'string') {
    const search = typeof from.search === 'string' ? from.search : '';
    const hash = typeof from.hash === 'string' ? from.hash : '';
    const wellFormed =
      (search === '' || search.startsWith('?')) && (hash === '' || hash.startsWith('#'));
    if (wellFormed && isSameOriginPath(`${from.pathname}${search}${hash}`)) {
      result.from = { pathname: from.pathname, search, hash };
    }
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
