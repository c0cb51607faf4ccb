import { newUserSchema } from '@sitelog/shared';
import { ConfigError } from '../config.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { normalizeEmail } from '../modules/auth/auth.service.js';
import { createAccount } from '../modules/users/users.service.js';

/**
 * What `npm run create-admin` does once it has its answers: validates them (no HTTP route
 * schema runs in front of the CLI, so it validates here with the API's schema) and creates the
 * admin through the one account writer, which applies the same password policy as the API.
 * Refusals come back as ConfigError, printed without a stack.
 */
export async function createAdminAccount(
  db: Database,
  input: Record<string, unknown>,
): Promise<{ id: number; email: string }> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  const user = parsed.data;
  try {
    const id = await createAccount(
      db,
      { email: user.email, firstname: user.firstname, lastname: user.lastname, isAdmin: true },
      { password: user.password },
    );
    return { id, email: normalizeEmail(user.email) };
  } catch (err) {
    if (err instanceof AppError && err.code === 'email_taken')
      throw new ConfigError('A user with that email already exists.');
    if (err instanceof AppError) throw new ConfigError(err.message);
    throw err;
  }
}
