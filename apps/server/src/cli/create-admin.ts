// `npm run create-admin -- --email a@b.c --firstname Ann --lastname Lee [--password …]`
// Creates the first admin of a production install (SAMPLE_DATA=off). Prompts for what is missing.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createDatabase, migrateToLatest } from '../db/database.js';
import { createAdminAccount } from './admin-account.js';

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
  const config = loadConfig();
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    const admin = await createAdminAccount(db, input);
    console.log(`Created admin #${admin.id} ${admin.email}.`);
  } finally {
    await db.destroy();
  }
}

run().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
