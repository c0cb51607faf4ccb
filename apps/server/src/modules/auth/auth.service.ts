import type { LoginResponse, SessionUser } from '@sitelog/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { nowIso } from '../../db/database.js';
import { AppError, unauthorized } from '../../http/errors.js';
import * as repo from './auth.repository.js';
import { verifyPassword } from './passwords.js';
import { hashToken, newSessionToken } from './tokens.js';

export interface AuthDeps {
  db: Database;
  config: Config;
}

/** The user behind a valid session, as attached to each request. */
export interface AuthUser extends SessionUser {
  sessionId: number;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const INVALID_LOGIN = 'The email or password is not correct.';
// Only touch last_seen_at when it is this stale, so reads do not turn into writes.
const TOUCH_AFTER_MS = 60_000;

/** The rate-limit keys of sign-in failures: per account+IP and per IP. */
export function rateKeys(email: string, ip: string) {
  return { account: `acct:${email}|${ip}`, ip: `ip:${ip}` };
}

/** Answers 429 while the account+IP or the IP has too many recent failures. */
export async function assertNotRateLimited(deps: AuthDeps, email: string, ip: string, now: number) {
  const keys = rateKeys(email, ip);
  const windowMs = deps.config.loginLimits.windowMs;
  const rows = await repo.findLoginFailures(deps.db, [keys.account, keys.ip]);
  for (const row of rows) {
    const started = Date.parse(row.window_start);
    if (now - started >= windowMs) continue;
    const max =
      row.key === keys.ip ? deps.config.loginLimits.perIp : deps.config.loginLimits.perAccount;
    if (row.count >= max) {
      const retryAfter = Math.max(1, Math.ceil((started + windowMs - now) / 1000));
      throw new AppError(
        429,
        'too_many_attempts',
        `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}

/** Counts one failed password check against both rate-limit keys. */
export async function recordFailure(deps: AuthDeps, email: string, ip: string, now: number) {
  const keys = rateKeys(email, ip);
  const nowText = new Date(now).toISOString();
  const windowStart = new Date(now - deps.config.loginLimits.windowMs).toISOString();
  await repo.recordLoginFailure(deps.db, keys.account, nowText, windowStart);
  await repo.recordLoginFailure(deps.db, keys.ip, nowText, windowStart);
}

/** Signs a user in: checks the rate limits, the password and the account state; opens a session. */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; ip: string },
): Promise<LoginResponse> {
  const email = normalizeEmail(input.email);
  const now = Date.now();
  await assertNotRateLimited(deps, email, input.ip, now);

  const user = await repo.findUserByEmail(deps.db, email);
  const ok = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !ok) {
    await recordFailure(deps, email, input.ip, now);
    throw unauthorized(INVALID_LOGIN);
  }
  if (!user.is_active) {
    throw new AppError(
      403,
      'account_deactivated',
      'This account has been deactivated. Ask an admin to reactivate it.',
    );
  }
  await repo.clearLoginFailures(deps.db, rateKeys(email, input.ip).account);

  const { token, tokenHash } = newSessionToken();
  const nowText = new Date(now).toISOString();
  await repo.insertSession(deps.db, {
    tokenHash,
    userId: user.id,
    now: nowText,
    expiresAt: new Date(now + deps.config.sessions.absoluteMs).toISOString(),
  });
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    isAdmin: user.is_admin === 1,
    isActive: true,
    token,
  };
}

/**
 * Resolves a bearer token to its user, or null when the session is unknown, revoked, idle too
 * long, past its absolute lifetime, or its user is deactivated.
 */
export async function authenticate(deps: AuthDeps, token: string): Promise<AuthUser | null> {
  const row = await repo.findSessionWithUser(deps.db, hashToken(token));
  if (!row || row.revoked_at !== null || row.is_active !== 1) return null;
  const now = Date.now();
  if (now >= Date.parse(row.expires_at)) return null;
  const lastSeen = Date.parse(row.last_seen_at);
  if (now - lastSeen >= deps.config.sessions.idleMs) return null;
  if (now - lastSeen >= TOUCH_AFTER_MS) await repo.touchSession(deps.db, row.session_id, nowIso());
  return {
    sessionId: row.session_id,
    id: row.id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    isAdmin: row.is_admin === 1,
    isActive: true,
  };
}

export async function logout(deps: AuthDeps, user: AuthUser): Promise<void> {
  await repo.revokeSession(deps.db, user.sessionId, nowIso());
}

/** Ends every session of a user at once (used when an admin deactivates them). */
export async function revokeAllSessions(deps: AuthDeps, userId: number): Promise<void> {
  await repo.revokeUserSessions(deps.db, userId, nowIso());
}

/** Whether a session id is still live; media URLs bound to a session use this. */
export async function isSessionLive(deps: AuthDeps, sessionId: number): Promise<boolean> {
  const row = await repo.findSessionState(deps.db, sessionId);
  return (
    !!row &&
    row.revoked_at === null &&
    row.is_active === 1 &&
    Date.now() < Date.parse(row.expires_at)
  );
}
