import { hash, verify } from '@node-rs/argon2';
import { limits } from '@sitelog/shared';
import {
  createPasswordPolicy,
  type PasswordOwner,
  type PasswordPolicy,
} from '@sitelog/shared/password-policy';
import { loadOnce } from '../../load-once.js';

// OWASP's argon2id baseline: 19 MiB, t=2, p=1. (algorithm 2 = Argon2id; the enum is a const enum.)
const options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// A hash of a random string, verified against when the email is unknown so that both
// failures take the same time.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (passwordHash === null) {
    dummyHash ??= hashPassword(`dummy-${Math.random()}`);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * The password policy, the only one (sign-up by an admin, the create-admin CLI and change
 * password all ask it; the web's strength meter runs the same code): OWASP's length rules, long
 * passphrases allowed, no composition rules, no password holding the owner's first name, last
 * name or email name (three letters or more), and a zxcvbn-ts estimate over its breached-password
 * and word lists (see `@sitelog/shared/password-policy`). Answers the reason for a refusal, shown
 * to the user as is, or null when the password is accepted.
 */
export async function passwordProblem(
  password: string,
  owner: PasswordOwner,
): Promise<string | null> {
  return (await passwordPolicy())(password, owner).problem;
}

/**
 * Built on first use: loading zxcvbn's dictionaries (~0.25 s) and ranking their ~240,000 words
 * (a few hundred ms more) is not paid at start by a server, or a test file, that never sets a
 * password.
 */
const passwordPolicy = loadOnce(async (): Promise<PasswordPolicy> => {
  const [common, en] = await Promise.all([
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return createPasswordPolicy({ common, en, limits });
});
