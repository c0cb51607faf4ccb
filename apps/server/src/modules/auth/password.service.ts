import { nowIso, writeTransaction } from '../../db/database.js';
import { AppError, badRequest, conflict } from '../../errors.js';
import * as repo from './auth.repository.js';
import {
  forgivePasswordAttempt,
  reservePasswordAttempt,
  type AuthDeps,
  type AuthUser,
} from './auth.service.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { prepareSampleRetirement, retireSampleAccount } from './sample-account.js';

const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';

/**
 * Changes the signed-in user's password. The current password must be right (a wrong one counts
 * against the same brute-force limits as a failed sign-in, so a stolen session cannot be used to
 * guess it); the new one must differ from it and pass the password policy. Every other session
 * of the user ends, and with them their media links; the session making the change stays. When
 * the user is the sample admin, the published sample password ends with it (retireSampleAccount).
 */
export async function changePassword(
  deps: AuthDeps,
  user: AuthUser,
  input: { current: string; next: string; ip: string },
): Promise<void> {
  await reservePasswordAttempt(deps, user.email, input.ip);

  const row = await repo.findPasswordHash(deps.db, user.id);
  // verifyPassword runs argon2 even without a hash, so every failure takes the same time.
  const currentHash = row?.password_hash ?? null;
  if (currentHash === null || !(await verifyPassword(currentHash, input.current))) {
    throw new AppError(403, 'wrong_password', WRONG_CURRENT_PASSWORD);
  }
  await forgivePasswordAttempt(deps, user.email, input.ip);

  if (input.next === input.current)
    throw badRequest('The new password must be different from the current one.', 'same_password');
  const problem = await passwordProblem(input.next, user);
  if (problem) throw badRequest(problem, 'weak_password');

  const newHash = await hashPassword(input.next);
  const sampleRetirement = await prepareSampleRetirement(deps.db, user.email);
  await writeTransaction(deps.db, async (trx) => {
    const at = nowIso();
    if (!(await repo.replacePasswordHash(trx, user.id, currentHash, newHash, at)))
      throw conflict(
        'The password was changed in the meantime. Sign in again and retry.',
        'password_changed',
      );
    await repo.revokeOtherUserSessions(trx, user.id, user.sessionId, at);
    if (sampleRetirement) await retireSampleAccount(trx, sampleRetirement);
  });
}

/**
 * Sets the password of a member who proved who they are with an invitation link (checked, and
 * marked used, by the caller in the transaction `deps.db` is): the password policy was applied
 * and `newHash` made by the caller. Every session the account holds ends, so nobody who had the
 * account before keeps it. 409 if the password changed since the caller read the account.
 */
export async function setPasswordFromLink(
  deps: AuthDeps,
  userId: number,
  newHash: string,
): Promise<void> {
  const at = nowIso();
  const row = await repo.findPasswordHash(deps.db, userId);
  if (!row || !(await repo.replacePasswordHash(deps.db, userId, row.password_hash, newHash, at)))
    throw conflict('The account changed in the meantime. Ask your admin for a new link.');
  await repo.revokeUserSessions(deps.db, userId, at);
}
