import { hash, verify } from '@node-rs/argon2';
import { limits } from '@sitelog/shared';

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

// The most common passwords of public breach lists; OWASP asks to refuse them.
const common = new Set(
  `password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword 12345678
  123456789 1234567890 12345678910 87654321 11111111 00000000 123123123 1q2w3e4r 1q2w3e4r5t
  qwertyui qwertyuiop qwerty123 qwerty1234 asdfghjk asdfghjkl zxcvbnm1 abcdefgh abcd1234
  iloveyou iloveyou1 sunshine princess football baseball welcome1 welcome123 letmein1 letmein123
  admin123 admin1234 administrator changeme changeme1 trustno1 superman batman123 starwars
  dragon123 monkey123 master123 shadow123 michael1 jennifer1 computer internet whatever
  sitelog1 sitelog123 construction 1qaz2wsx zaq12wsx qazwsxedc 11223344 12341234 123qweasd
  secret123 mustang1 hello123 freedom1 charlie1 jordan23 liverpool chelsea1 arsenal1 samsung1
  google123 football1 baseball1 password! password? passwort passwort1 motdepasse azertyui`
    .split(/\s+/)
    .filter(Boolean),
);

/** Whose password it is: the policy refuses passwords that contain their name or email. */
interface PasswordOwner {
  firstname: string;
  lastname: string;
  email: string;
}

/**
 * The password policy, the only one (sign-up by an admin, the create-admin CLI and change
 * password all ask it): OWASP's length rules, long passphrases allowed, common passwords refused,
 * and no password holding the owner's first name, last name or email name. A name of three
 * letters or more counts ("ann" is refused in Ann's password): the stricter of the rules this
 * replaced, since a short name is also the easiest part of a password to guess.
 */
export function passwordProblem(password: string, owner: PasswordOwner): string | null {
  if (password.length < limits.passwordMin)
    return `Password must be at least ${limits.passwordMin} characters.`;
  if (password.length > limits.passwordMax)
    return `Password must be at most ${limits.passwordMax} characters.`;
  const lower = password.toLowerCase();
  if (common.has(lower) || /^(.)\1+$/.test(password))
    return 'That password is too common. Choose a longer or less predictable one.';
  const personal = [owner.firstname, owner.lastname, owner.email.split('@')[0] ?? ''];
  if (personal.some((word) => word.trim().length >= 3 && lower.includes(word.trim().toLowerCase())))
    return 'The password must not contain your name or email.';
  return null;
}
