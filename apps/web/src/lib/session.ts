import type { LoginResponse, SessionUser } from '@sitelog/shared';
import { useSyncExternalStore } from 'react';

/** Fixed storage keys (spec §9): the access token and the signed-in user's record. */
export const TOKEN_KEY = 'sitelog.token';
export const USER_KEY = 'sitelog.user';

/** The user record kept in the browser: enough to render the layout without a round trip. */
export type StoredUser = Pick<SessionUser, 'id' | 'firstname' | 'lastname' | 'email' | 'isAdmin'>;

/*
 * Checked by hand rather than with the contract's zod schema: this runs before the first render,
 * and a schema here would put zod in front of every page load. It accepts what
 * `sessionUserSchema.pick(...)` accepts and, like it, keeps only the record's own fields.
 */
function readStoredUser(value: unknown): StoredUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, firstname, lastname, email, isAdmin } = value as Record<string, unknown>;
  if (
    typeof id !== 'number' ||
    !Number.isSafeInteger(id) ||
    typeof firstname !== 'string' ||
    typeof lastname !== 'string' ||
    typeof email !== 'string' ||
    typeof isAdmin !== 'boolean'
  )
    return null;
  return { id, firstname, lastname, email, isAdmin };
}

export interface Session {
  token: string;
  user: StoredUser;
}

/** Why the last session ended: an explicit logout forgets where the user was. */
export type SessionEndReason = 'logout' | 'expired';

export interface SessionSnapshot {
  session: Session | null;
  endedBy: SessionEndReason | null;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let endedBy: SessionEndReason | null = null;

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function parseSession(token: string | null, rawUser: string | null): Session | null {
  if (!token || !rawUser) return null;
  try {
    const user = readStoredUser(JSON.parse(rawUser));
    return user ? { token, user } : null;
  } catch {
    return null;
  }
}

// localStorage is the source of truth; the parsed snapshot is cached so that
// useSyncExternalStore sees a stable object while nothing changed.
let cache: {
  token: string | null;
  rawUser: string | null;
  endedBy: SessionEndReason | null;
  snapshot: SessionSnapshot;
} | null = null;

export function getSessionSnapshot(): SessionSnapshot {
  const token = readStorage(TOKEN_KEY);
  const rawUser = readStorage(USER_KEY);
  if (cache && cache.token === token && cache.rawUser === rawUser && cache.endedBy === endedBy)
    return cache.snapshot;
  const snapshot: SessionSnapshot = { session: parseSession(token, rawUser), endedBy };
  cache = { token, rawUser, endedBy, snapshot };
  return snapshot;
}

export function getSession(): Session | null {
  return getSessionSnapshot().session;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

function emit(): void {
  for (const listener of [...listeners]) listener();
}

function toStoredUser(user: StoredUser): StoredUser {
  const { id, firstname, lastname, email, isAdmin } = user;
  return { id, firstname, lastname, email, isAdmin };
}

/** Stores a fresh session after a successful login. */
export function startSession(login: LoginResponse): void {
  window.localStorage.setItem(TOKEN_KEY, login.token);
  window.localStorage.setItem(USER_KEY, JSON.stringify(toStoredUser(login)));
  endedBy = null;
  emit();
}

/** Refreshes the stored user record (e.g. from GET /api/auth/me) when it changed. */
export function updateSessionUser(user: StoredUser): void {
  const current = getSession();
  // A late answer for an earlier session must not relabel the current one.
  if (!current || current.user.id !== user.id) return;
  const next = JSON.stringify(toStoredUser(user));
  if (readStorage(USER_KEY) === next) return;
  window.localStorage.setItem(USER_KEY, next);
  emit();
}

/** Forgets the token and the user record. */
export function endSession(reason: SessionEndReason): void {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    window.localStorage.removeItem(USER_KEY);
  } catch {
    // Storage unavailable: nothing was kept, so there is nothing to clear.
  }
  endedBy = reason;
  emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes localStorage; follow it here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_KEY || event.key === USER_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current session (or null) and how the previous one ended; re-renders on every change. */
export function useSessionSnapshot(): SessionSnapshot {
  return useSyncExternalStore(subscribeSession, getSessionSnapshot, getSessionSnapshot);
}

export function useSession(): Session | null {
  return useSessionSnapshot().session;
}

/** The signed-in user; only for components rendered behind the sign-in guard. */
export function useCurrentUser(): StoredUser {
  const session = useSession();
  if (!session)
    throw new Error('useCurrentUser needs a signed-in user (render it behind RequireAuth).');
  return session.user;
}
