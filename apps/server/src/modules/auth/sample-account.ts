import type { LoginHints } from '@sitelog/shared';
import { clientConfig } from '../client-config/client-config.routes.js';
import * as repo from './auth.repository.js';
import type { AuthDeps } from './auth.service.js';

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

/**
 * The sample admin's email and initial password while that account is active and still has the
 * password set at seeding (a different hash means it was changed), else null.
 */
export async function untouchedSampleAccount(
  deps: Pick<AuthDeps, 'db'>,
): Promise<{ email: string; password: string } | null> {
  const raw = await repo.getSetting(deps.db, SAMPLE_KEY);
  if (!raw) return null;
  const sample = JSON.parse(raw) as SampleAccount;
  const user = await repo.findUserByEmail(deps.db, sample.email);
  const untouched = !!user && user.is_active === 1 && user.password_hash === sample.passwordHash;
  return untouched ? { email: sample.email, password: sample.password } : null;
}

/** The headers a reverse proxy adds; any of them means the request did not start on this machine. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Whether a request comes straight from a browser on this machine: the socket peer (never
 * `request.ip`, which a proxy setting lets the client choose) is a loopback address and no
 * forwarding header is present. A reverse proxy on the same machine also connects from loopback,
 * so its forwarding header is what gives it away.
 */
export function isDirectLocalRequest(request: {
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
  const base = clientConfig(deps.config);
  if (!isLoopbackHost(deps.config.host) || !isDirectLocalRequest(request))
    return { ...base, sample: null };
  return { ...base, sample: await untouchedSampleAccount(deps) };
}
