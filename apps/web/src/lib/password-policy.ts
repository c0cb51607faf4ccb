import { limits } from '@sitelog/shared';
import type { PasswordPolicy } from '@sitelog/shared/password-policy';
import { useEffect, useState } from 'react';

let loading: Promise<PasswordPolicy> | null = null;

/**
 * The server's password policy with the estimator's dictionaries (~850 KB gzip). Fetched on first
 * use, never in the initial bundle; a failed fetch (offline, a new release) is retried next time.
 */
export function loadPasswordPolicy(): Promise<PasswordPolicy> {
  loading ??= Promise.all([
    import('@sitelog/shared/password-policy'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(([policy, common, en]) => policy.createPasswordPolicy({ common, en, limits }));
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The policy once `wanted` has been true (e.g. a password field got focus), else null. */
export function usePasswordPolicy(wanted: boolean): PasswordPolicy | null {
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  useEffect(() => {
    if (!wanted || policy) return;
    let current = true;
    loadPasswordPolicy().then(
      (loaded) => {
        if (current) setPolicy(() => loaded);
      },
      // The meter is advice: without it the form still works and the server still decides.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted, policy]);
  return policy;
}
