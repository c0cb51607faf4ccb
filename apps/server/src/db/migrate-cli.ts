// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { ConfigError, loadConfig } from '../config.js';
import { createDatabase, migrateToLatest } from './database.js';

async function run(): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    console.log(`Database is up to date (${config.database.kind}).`);
  } finally {
    await db.destroy();
  }
}

run().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
