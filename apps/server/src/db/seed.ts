import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { rememberSampleAccount } from '../modules/auth/sample-account.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { countUsers, insertUser } from '../modules/users/users.repository.js';
import { nowIso, type Database } from './database.js';

export interface SeedDeps {
  config: Config;
  db: Database;
}

const people = [
  { firstname: 'Dana', lastname: 'Whitfield', email: 'dana.whitfield@example.com', isAdmin: true },
  { firstname: 'Marco', lastname: 'Rossi', email: 'marco.rossi@example.com', isAdmin: false },
  { firstname: 'Aisha', lastname: 'Okafor', email: 'aisha.okafor@example.com', isAdmin: false },
  { firstname: 'Tomasz', lastname: 'Nowak', email: 'tomasz.nowak@example.com', isAdmin: false },
  { firstname: 'Lena', lastname: 'Fischer', email: 'lena.fischer@example.com', isAdmin: false },
] as const;

/** A readable random password such as `site-k3vq-9xmt-2hpa`. */
function samplePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `site-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/**
 * Creates the sample company on an empty database: an admin and a few members sharing one
 * random password, which the login page prefills while the admin has not changed it.
 * Returns the admin's email, or null when the database already had users.
 */
export async function seedSampleWorkspace(deps: SeedDeps): Promise<{ email: string } | null> {
  if ((await countUsers(deps.db)) > 0) return null;
  const password = samplePassword();
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const userIds: number[] = [];
  for (const person of people) {
    userIds.push(
      await insertUser(deps.db, {
        email: person.email,
        firstname: person.firstname,
        lastname: person.lastname,
        password_hash: passwordHash,
        is_admin: person.isAdmin ? 1 : 0,
        is_active: 1,
        created_at: now,
        updated_at: now,
        deactivated_at: null,
      }),
    );
  }
  const admin = people[0];
  await rememberSampleAccount(deps, { email: admin.email, password, passwordHash });
  return { email: admin.email };
}
