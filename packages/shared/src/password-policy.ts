// The password policy, shared so that the strength meter in the browser says what the server
// will answer. The estimator's dictionaries (~850 KB gzip) are a parameter: the server imports
// them, the browser fetches them only when a password field is focused. This file is a subpath
// export (`@sitelog/shared/password-policy`), not part of the package index, so the web's
// initial bundle never carries the estimator.
import { ZxcvbnFactory, type OptionsType } from '@zxcvbn-ts/core';
import type { limits as sharedLimits } from './limits.js';

/** What the policy is built from, each side loading it its own way. */
export interface PolicyInputs {
  /** `@zxcvbn-ts/language-common` */
  common: { dictionary: OptionsType['dictionary']; adjacencyGraphs: OptionsType['graphs'] };
  /** `@zxcvbn-ts/language-en` */
  en: { dictionary: OptionsType['dictionary']; translations: OptionsType['translations'] };
  /**
   * `limits` from the package index, handed in rather than imported: an import here made the
   * web bundler split `limits` into a chunk of its own, one more request before the first paint.
   */
  limits: Pick<typeof sharedLimits, 'passwordMin' | 'passwordMax'>;
}

/** Whose password it is: their name and email count as easy to guess. */
export interface PasswordOwner {
  firstname: string;
  lastname: string;
  email: string;
}

/** zxcvbn's score: 0 (too guessable) to 4 (very unguessable). */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export const strengthLabels = ['very weak', 'weak', 'fair', 'good', 'strong'] as const;
export type StrengthLabel = (typeof strengthLabels)[StrengthScore];

export interface PasswordVerdict {
  /** 0 when a rule other than the estimate refuses the password. */
  score: StrengthScore;
  label: StrengthLabel;
  /** Why the password is refused (the server's message), or null when it is accepted. */
  problem: string | null;
  /** The same without the lead-in, for a strength meter: the rule, or the estimator's advice. */
  reason: string | null;
}

export type PasswordPolicy = (password: string, owner: PasswordOwner) => PasswordVerdict;

/**
 * Score 3 means about 10^8 guesses or more: out of reach of online guessing behind the login
 * limits, and slow offline against argon2id. Score 2 still lets through passwords such as
 * "Summer2024!", which the audit counted among the well-known ones.
 */
export const STRENGTH_MIN_SCORE: StrengthScore = 3;

/**
 * The estimator sees at most this many characters. zxcvbn's l33t matching grows with the input:
 * uncapped, a random 256-character password took seconds of CPU; at 64 characters and 10 l33t
 * variants the worst case measured ~80 ms of CPU on a loaded 2-core machine. A password whose
 * first 64 characters are strong is strong; one whose first 64 are weak is refused, which errs
 * on the safe side.
 */
export const STRENGTH_INPUT_MAX = 64;
const L33T_VARIANTS_MAX = 10;

/** The app's own name: a word an attacker of this install tries first. */
const APP_WORDS = ['sitelog'];

export const NAME_IN_PASSWORD = 'The password must not contain your name or email.';
const TOO_GUESSABLE = 'That password is too common or too easy to guess.';
const FALLBACK_ADVICE = 'Add another word or two: a few ordinary words make a strong passphrase.';

/** Name, surname, email name and the email's domain labels (without the top-level domain). */
function personalWords(owner: PasswordOwner): string[] {
  const [local = '', domain = ''] = owner.email.toLowerCase().split('@');
  const labels = domain.split('.').slice(0, -1);
  return [owner.firstname, owner.lastname, local, ...local.split(/[._+-]/), ...labels]
    .concat(labels.flatMap((label) => label.split('-')))
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word.length > 0);
}

const refused = (problem: string): PasswordVerdict => ({
  score: 0,
  label: strengthLabels[0],
  problem,
  reason: problem,
});

/**
 * Builds the policy: OWASP's length limits (long passphrases allowed, no composition rules), no
 * password holding the owner's first name, last name or email name of three letters or more, and
 * a zxcvbn-ts estimate of at least {@link STRENGTH_MIN_SCORE} over its breached-password
 * (~49,000 entries), name and English word lists, with the owner's details and the app's name as
 * extra words. A refusal carries the estimator's warning and first suggestion as its reason.
 */
export function createPasswordPolicy({ common, en, limits }: PolicyInputs): PasswordPolicy {
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
    maxLength: STRENGTH_INPUT_MAX,
    l33tMaxSubstitutions: L33T_VARIANTS_MAX,
  });

  return (password, owner) => {
    if (password.length < limits.passwordMin)
      return refused(`Password must be at least ${limits.passwordMin} characters.`);
    if (password.length > limits.passwordMax)
      return refused(`Password must be at most ${limits.passwordMax} characters.`);

    const lower = password.toLowerCase();
    const personal = personalWords(owner);
    const named = [owner.firstname, owner.lastname, owner.email.split('@')[0] ?? '']
      .map((word) => word.trim().toLowerCase())
      .some((word) => word.length >= 3 && lower.includes(word));
    if (named) return refused(NAME_IN_PASSWORD);

    const result = zxcvbn.check(password, [...personal, ...APP_WORDS]);
    const score: StrengthScore = result.score;
    const label = strengthLabels[score];
    if (score >= STRENGTH_MIN_SCORE) return { score, label, problem: null, reason: null };
    const { warning, suggestions } = result.feedback;
    const reason = [warning, suggestions[0] ?? (warning ? null : FALLBACK_ADVICE)]
      .filter(Boolean)
      .join(' ');
    return { score, label, problem: `${TOO_GUESSABLE} ${reason}`, reason };
  };
}
