import type { LoginResponse, SessionUser } from '@sitelog/shared';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { nowIso } from '../../db/database.js';
import { AppError, unauthorized } from '../../errors.js';
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
// last_seen_at is written only when this stale, so most reads stay reads; a tenth of the idle
// window at most, so a session in use is never ended early by more than that.
const TOUCH_AFTER_MAX_MS = 60_000;
const touchAfterMs = (idleMs: number) => Math.min(TOUCH_AFTER_MAX_MS, idleMs / 10);

// Once an account is over its limit across all IPs, each further attempt from an address it
// never signed in from waits 1 s, 2 s, 4 s, … after the previous one, never more than this.
const SLOWDOWN_MAX_MS = 5 * 60_000;

/**
 * The rate-limit keys of sign-in attempts: per account+IP, per IP and per account across all
 * IPs; `source` names the account+IP pair in the known sign-in sources.
 */
function rateKeys(email: string, ip: string) {
  return {
    account: `acct:${email}|${ip}`,
    ip: `ip:${ip}`,
    accountAllIps: `acct-all:${email}`,
    source: `${email}|${ip}`,
  };
}

function tooManyAttempts(retryAfterSeconds: number, what = 'sign-in attempts'): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const wait = seconds < 60 ? `${seconds} second(s)` : `${Math.ceil(seconds / 60)} minute(s)`;
  return new AppError(429, 'too_many_attempts', `Too many failed ${what}. Try again in ${wait}.`, {
    'retry-after': String(seconds),
  });
}

/** The delay after the latest attempt once an account has `over` failures beyond its cap. */
function slowdownMs(over: number): number {
  return Math.min(SLOWDOWN_MAX_MS, 1000 * 2 ** Math.min(Math.max(over, 0), 20));
}

/**
 * Counts a password check against the rate limits before it runs, and answers 429 once one is
 * over: per account+IP and per IP (fixed windows), and per account across all IPs, past which
 * each attempt must wait a growing delay (capped at five minutes) unless it comes from an
 * address that signed in to the account before. A refused attempt writes nothing: the counters
 * are read first. Counting before the check means parallel guesses cannot all slip past a check
 * made before any of them had failed; each count is checked again as written.
 */
export async function reservePasswordAttempt(deps: AuthDeps, email: string, ip: string) {
  const keys = rateKeys(email, ip);
  const now = Date.now();
  const { windowMs, perAccount, perIp, perAccountAllIps } = deps.config.loginLimits;
  const nowText = new Date(now).toISOString();
  const windowStart = new Date(now - windowMs).toISOString();
  const windowLeftSeconds = (row: { window_start: string }) =>
    (Date.parse(row.window_start) + windowMs - now) / 1000;
  let known: boolean | undefined;
  const isKnownSource = async () =>
    (known ??= await repo.isKnownLoginSource(
      deps.db,
      keys.source,
      new Date(now - deps.config.sessions.absoluteMs).toISOString(),
    ));

  const rows = await repo.findLoginCounters(deps.db, [keys.account, keys.ip, keys.accountAllIps]);
  const current = (key: string) =>
    rows.find((row) => row.key === key && row.window_start >= windowStart);
  for (const [key, max] of [
    [keys.account, perAccount],
    [keys.ip, perIp],
  ] as const) {
    const row = current(key);
    if (row && row.count >= max) throw tooManyAttempts(windowLeftSeconds(row));
  }

  const allIps = current(keys.accountAllIps);
  let allIpsCounted = false;
  if (allIps && allIps.count >= perAccountAllIps && !(await isKnownSource())) {
    const last = Date.parse(allIps.last_attempt_at ?? allIps.window_start);
    const waitMs = last + slowdownMs(allIps.count - perAccountAllIps) - now;
    if (waitMs > 0) throw tooManyAttempts(Math.min(waitMs / 1000, windowLeftSeconds(allIps)));
    if (!(await repo.claimLoginAttempt(deps.db, keys.accountAllIps, allIps, nowText)))
      throw tooManyAttempts(1);
    allIpsCounted = true;
  }

  const account = await repo.countLoginAttempt(deps.db, keys.account, nowText, windowStart);
  const address = await repo.countLoginAttempt(deps.db, keys.ip, nowText, windowStart);
  for (const [row, max] of [
    [account, perAccount],
    [address, perIp],
  ] as const) {
    if (row.count > max) throw tooManyAttempts(windowLeftSeconds(row));
  }
  if (!allIpsCounted) {
    const row = await repo.countLoginAttempt(deps.db, keys.accountAllIps, nowText, windowStart);
    // Parallel attempts that all read a count under the cap: those counted past it wait.
    if (row.count > perAccountAllIps && !(await isKnownSource()))
      throw tooManyAttempts(slowdownMs(row.count - perAccountAllIps) / 1000);
  }
}

/**
 * A password check succeeded: the account+IP starts afresh, the IP and the account get their
 * attempt back, and the address becomes one this account signs in from (it skips the delay of
 * the all-IPs cap from now on).
 */
export async function forgivePasswordAttempt(deps: AuthDeps, email: string, ip: string) {
  const keys = rateKeys(email, ip);
  await repo.clearLoginFailures(deps.db, keys.account);
  await repo.uncountLoginAttempt(deps.db, keys.ip);
  await repo.uncountLoginAttempt(deps.db, keys.accountAllIps);
  await repo.rememberLoginSource(deps.db, keys.source, nowIso());
}

/**
 * Secret links (invitations) share the per-IP sign-in limit: an address that sent too many
 * failed sign-ins or unknown links within the window is refused (429) before the link is looked
 * up. Only unknown links count (`countLinkGuess`); a link that exists, used or not, is no guess.
 */
export async function checkLinkGuesses(deps: AuthDeps, ip: string): Promise<void> {
  const key = rateKeys('', ip).ip;
  const { windowMs, perIp } = deps.config.loginLimits;
  const now = Date.now();
  const [row] = await repo.findLoginCounters(deps.db, [key]);
  if (row && row.window_start >= new Date(now - windowMs).toISOString() && row.count >= perIp)
    throw tooManyAttempts((Date.parse(row.window_start) + windowMs - now) / 1000, 'attempts');
}

/** Counts a link nobody was given against the address's limit (see `checkLinkGuesses`). */
export async function countLinkGuess(deps: AuthDeps, ip: string): Promise<void> {
  const now = Date.now();
  await repo.countLoginAttempt(
    deps.db,
    rateKeys('', ip).ip,
    new Date(now).toISOString(),
    new Date(now - deps.config.loginLimits.windowMs).toISOString(),
  );
}

/** The account a new session is for, as its row reads. */
interface SessionAccount {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  is_admin: number;
}

/**
 * Opens a session for an active account that has just proved who it is (a password at sign-in,
 * an invitation link) and answers as a sign-in does. `deps.db` may be the caller's transaction.
 */
export async function openSession(deps: AuthDeps, user: SessionAccount): Promise<LoginResponse> {
  const now = Date.now();
  const { token, tokenHash } = newSessionToken();
  await repo.insertSession(deps.db, {
    tokenHash,
    userId: user.id,
    now: new Date(now).toISOString(),
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

/** Signs a user in: checks the rate limits, the password and the account state; opens a session. */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; ip: string },
): Promise<LoginResponse> {
  const email = normalizeEmail(input.email);
  await reservePasswordAttempt(deps, email, input.ip);

  const user = await repo.findUserByEmail(deps.db, email);
  const ok = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !ok) throw unauthorized(INVALID_LOGIN);
  await forgivePasswordAttempt(deps, email, input.ip);
  if (!user.is_active) {
    throw new AppError(
      403,
      'account_deactivated',
      'This account has been deactivated. Ask an admin to reactivate it.',
    );
  }
  return openSession(deps, user);
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
  if (now - lastSeen >= touchAfterMs(deps.config.sessions.idleMs))
    await repo.touchSession(deps.db, row.session_id, nowIso());
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
  const now = Date.now();
  return (
    !!row &&
    row.revoked_at === null &&
    row.is_active === 1 &&
    now < Date.parse(row.expires_at) &&
    now - Date.parse(row.last_seen_at) < deps.config.sessions.idleMs
  );
}

const DAY_MS = 24 * 3600_000;

/**
 * Deletes what can never be used again: sessions revoked or expired over a day ago, rate-limit
 * windows that have ended, and sign-in sources older than a session can live. Runs hourly (startAuthHousekeeping).
 */
export async function pruneAuthRecords(deps: AuthDeps): Promise<void> {
  const now = Date.now();
  await repo.deleteDeadSessions(deps.db, new Date(now - DAY_MS).toISOString());
  await repo.deleteOldLoginFailures(
    deps.db,
    new Date(now - deps.config.loginLimits.windowMs).toISOString(),
  );
  await repo.deleteOldLoginSources(
    deps.db,
    new Date(now - deps.config.sessions.absoluteMs).toISOString(),
  );
}

/** Prunes auth records every hour; returns the stop function. */
export function startAuthHousekeeping(
  deps: AuthDeps,
  log: { warn: (obj: object, msg: string) => void },
): () => void {
  const run = () => {
    pruneAuthRecords(deps).catch((err: unknown) => log.warn({ err }, 'auth housekeeping failed'));
  };
  const timer = setInterval(run, 3600_000);
  timer.unref();
  run();
  return () => clearInterval(timer);
}
