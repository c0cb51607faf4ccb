import type { LoginHints } from '@sitelog/shared';
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
 * What the login page may prefill: the sample admin's credentials, only while that account is
 * active and still has its initial password.
 */
export async function loginHints(deps: AuthDeps): Promise<LoginHints> {
  const base = {
    placesProvider: deps.config.googleMapsKey ? ('google' as const) : ('offline' as const),
    googleMapsKey: deps.config.googleMapsKey,
  };
  const raw = await repo.getSetting(deps.db, SAMPLE_KEY);
  if (!raw) return { ...base, sample: null };
  const sample = JSON.parse(raw) as SampleAccount;
  const user = await repo.findUserByEmail(deps.db, sample.email);
  const untouched = !!user && user.is_active === 1 && user.password_hash === sample.passwordHash;
  return { ...base, sample: untouched ? { email: sample.email, password: sample.password } : null };
}
