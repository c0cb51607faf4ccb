import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { seedSampleWorkspace } from './db/seed.js';
import { warmPlaces } from './modules/places/places.service.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.database);
  if (config.migrateOnStart) await migrateToLatest(db);
  // TODO(issue 4): replace with the signed media links of the media module.
  const links = { url: async (key: string) => `/media/${key}` };
  const app = await buildApp({ config, db, links });
  app.addHook('onClose', async () => db.destroy());

  if (config.sampleData) {
    const seeded = await seedSampleWorkspace({ config, db });
    if (seeded) app.log.info({ email: seeded.email }, 'created the sample workspace');
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Index the place gazetteer now, in the background, so the first LOCATION keystroke is fast.
  warmPlaces(app.log);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
