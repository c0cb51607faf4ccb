import { randomBytes } from 'node:crypto';
import type { LoginHints } from '@sitelog/shared';
import { nowIso, writeTransaction, type Database } from '../../db/database.js';
import { placesConfig } from '../client-config/client-config.routes.js';
import * as repo from './auth.repository.js';
import type { AuthDeps } from './auth.service.js';
import { hashPassword } from './passwords.js';

const SAMPLE_KEY = 'sample_account';

interface SampleAccount {
  email: string;
  password: string;
  /** The hash set at seeding; a different hash now means the password was changed. */
  passwordHash: string;
}

export async function rememberSampleAccount(
  deps: Pick<AuthDeps, 'db'>,
  account: SampleAccount,
): Promise<void> {
  await repo.putSetting(deps.db, SAMPLE_KEY, JSON.stringify(account));
}

/**
 * Whether the server listens only on this machine (`HOST` 127.x.x.x, ::1 or localhost), so only
 * people on it can read the login page. Anything else (0.0.0.0, a LAN address) is reachable by
 * others.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

async function readSampleAccount(db: Database): Promise<SampleAccount | null> {
  const raw = await repo.getSetting(db, SAMPLE_KEY);
  return raw ? (JSON.parse(raw) as SampleAccount) : null;
}

/**
 * A replacement for the published sample password: the hash of a random secret nobody keeps,
 * made before a transaction (hashing is slow on purpose). Null when there is no sample account,
 * or when `email` is given and is not the sample admin's.
 */
export async function prepareSampleRetirement(
  db: Database,
  email?: string,
): Promise<{ replacementHash: string } | null> {
  const sample = await readSampleAccount(db);
  if (!sample || (email !== undefined && sample.email !== email)) return null;
  return { replacementHash: await hashPassword(randomBytes(32).toString('base64url')) };
}

/**
 * Ends the published sample password (the admin has changed theirs or was deactivated): every
 * account still holding it (the sample members) gets the prepared random one and loses its
 * sessions, and the plain password is deleted from the settings. Run it in the transaction of
 * the change, so the admin's new password never coexists with members open to the old one.
 */
export async function retireSampleAccount(
  trx: Database,
  prepared: { replacementHash: string },
): Promise<void> {
  const sample = await readSampleAccount(trx);
  if (!sample) return;
  const holders = await repo.findUserIdsByPasswordHash(trx, sample.passwordHash);
  await repo.replacePasswordHashes(trx, holders, prepared.replacementHash, nowIso());
  await repo.deleteSetting(trx, SAMPLE_KEY);
}

/**
 * The sample admin's email and initial password while that account is active and still has the
 * password set at seeding, else null. Finding it changed or deactivated (an operator may switch
 * an admin off in the database, or have changed it before this check existed) retires the
 * sample password on the spot.
 */
export async function untouchedSampleAccount(
  deps: Pick<AuthDeps, 'db'>,
): Promise<{ email: string; password: string } | null> {
  const sample = await readSampleAccount(deps.db);
  if (!sample) return null;
  const user = await repo.findUserByEmail(deps.db, sample.email);
  const untouched = !!user && user.is_active === 1 && user.password_hash === sample.passwordHash;
  if (untouched) return { email: sample.email, password: sample.password };
  const prepared = await prepareSampleRetirement(deps.db);
  if (prepared) await writeTransaction(deps.db, (trx) => retireSampleAccount(trx, prepared));
  return null;
}

/** The headers a reverse proxy adds; any of them means the request did not start on this machine. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Whether a request comes straight from a browser on this machine: the socket peer (never
 * `request.ip`, which a proxy setting lets the client choose) is a loopback address and no
 * forwarding header is present. A reverse proxy on the same machine also connects from loopback,
 * so its forwarding header is what gives it away.
 */
function isDirectLocalRequest(request: {
  remoteAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const peer = (request.remoteAddress ?? '').replace(/^::ffff:/i, '');
  return peer === '::1' || /^127(\.\d{1,3}){3}$/.test(peer);
}

/**
 * What the login page may prefill: the sample admin's credentials while that account is
 * untouched, only when the server listens on a loopback address and the request comes directly
 * from this machine (see isDirectLocalRequest); otherwise anyone who can reach the server,
 * directly or through a proxy, would be handed an admin password.
 */
export async function loginHints(
  deps: AuthDeps,
  request: Parameters<typeof isDirectLocalRequest>[0],
): Promise<LoginHints> {
  const base = placesConfig(deps.config);
  if (!isLoopbackHost(deps.config.host) || !isDirectLocalRequest(request))
    return { ...base, sample: null };
  return { ...base, sample: await untouchedSampleAccount(deps) };
}
