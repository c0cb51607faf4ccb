import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { seedSampleWorkspace } from './db/seed.js';
import { closeImageWorkers, createImageProcessor } from './media/images.js';
import { createMediaLinks } from './media/links.js';
import { createStorage } from './media/storage/index.js';
import { startSweeper } from './media/sweeper.js';
import { warmPlaces } from './modules/places/places.service.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.database);
  if (config.migrateOnStart) await migrateToLatest(db);
  const storage = createStorage(config);
  const links = createMediaLinks({ config, storage });
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
  });
  const app = await buildApp({ config, db, links, storage, images });

  if (config.sampleData) {
    const started = Date.now();
    const seeded = await seedSampleWorkspace({ config, db, storage, images });
    if (seeded)
      app.log.info(
        { email: seeded.email, photos: seeded.photos, ms: Date.now() - started },
        'created the sample workspace',
      );
  }

  // Removes temp files of abandoned uploads and stored files no upload references.
  const stopSweeper = startSweeper({ db, storage, config, log: app.log });
  app.addHook('onClose', async () => {
    await stopSweeper();
    await closeImageWorkers();
    await storage.close();
    await db.destroy();
  });

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
