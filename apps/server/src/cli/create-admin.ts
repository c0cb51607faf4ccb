// `npm run create-admin -- --email a@b.c --firstname Ann --lastname Lee [--password …]`
// Creates the first admin of a production install (SAMPLE_DATA=off). Prompts for what is missing.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { newUserSchema } from '@sitelog/shared';
import { ConfigError, loadConfig } from '../config.js';
import { createDatabase, isUniqueViolation, migrateToLatest, nowIso } from '../db/database.js';
import { normalizeEmail } from '../modules/auth/auth.service.js';
import { hashPassword, passwordProblem } from '../modules/auth/passwords.js';
import { insertUser } from '../modules/users/users.repository.js';

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      firstname: { type: 'string' },
      lastname: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const input = {
    email: values.email ?? (await ask('Email: ')),
    firstname: values.firstname ?? (await ask('First name: ')),
    lastname: values.lastname ?? (await ask('Last name: ')),
    password:
      values.password ??
      process.env.ADMIN_PASSWORD ??
      (await ask('Password (min. 8 characters): ')),
  };
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('\n'));
  const user = parsed.data;
  const problem = passwordProblem(user.password, [
    user.firstname,
    user.lastname,
    user.email.split('@')[0] ?? '',
  ]);
  if (problem) throw new ConfigError(problem);

  const config = loadConfig();
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    const now = nowIso();
    const id = await insertUser(db, {
      email: normalizeEmail(user.email),
      firstname: user.firstname,
      lastname: user.lastname,
      password_hash: await hashPassword(user.password),
      is_admin: 1,
      is_active: 1,
      created_at: now,
      updated_at: now,
      deactivated_at: null,
    });
    console.log(`Created admin #${id} ${normalizeEmail(user.email)}.`);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConfigError('A user with that email already exists.');
    throw err;
  } finally {
    await db.destroy();
  }
}

run().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
