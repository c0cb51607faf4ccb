import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createDatabase, migrateToLatest, type Database } from './db/database.js';
import { seedSampleWorkspace } from './sample/sample-workspace.js';
import { createImageProcessor } from './media/image-processor.js';
import { createMediaLinks } from './media/links.js';
import { createStorage } from './media/storage/index.js';
import { startSweeper } from './media/sweeper.js';
import { startAuthHousekeeping } from './modules/auth/auth.service.js';
import { isLoopbackHost, untouchedSampleAccount } from './modules/auth/sample-account.js';
import { startCoordinateBackfill, warmPlaces } from './modules/places/places.service.js';
import { findReferencedReportKeys } from './modules/reports/reports.service.js';
import { findReferencedMediaKeys } from './modules/uploads/uploads.repository.js';

/**
 * The login page offers the sample admin's initial password only on a loopback HOST. On any
 * other HOST, say so and put the password in the start-up log instead, so the operator can sign
 * in (and change it on My profile, which ends this).
 */
async function announceSampleAccount(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
): Promise<void> {
  // Asked on every start, so a sample admin switched off in the database ends the published
  // password (untouchedSampleAccount retires it) even if nobody opens the login page.
  const sample = await untouchedSampleAccount({ db });
  if (!sample || isLoopbackHost(config.host)) return;
  log.warn(
    { email: sample.email, host: config.host },
    `HOST ${config.host} is not a loopback address, so the login page does not show the sample ` +
      `admin's password (it does only when the server listens on 127.0.0.1, ::1 or localhost). ` +
      `Sign in as ${sample.email} with the password logged next, then change it on My profile.`,
  );
  // In the message, not a field: the logger redacts fields named password.
  log.info(`sample admin ${sample.email} has the initial password: ${sample.password}`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDatabase(config.database);
  if (config.migrateOnStart) await migrateToLatest(db);
  const storage = createStorage(config);
  const links = createMediaLinks({ config, storage });
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
    heicDecoder: config.uploads.heicDecoder,
    tempDir: config.uploads.tempDir,
  });
  const app = await buildApp({ config, db, links, storage, images });

  if (config.sampleData) {
    const started = Date.now();
    const seeded = await seedSampleWorkspace({ config, db, storage, images });
    if (seeded)
      app.log.info(
        {
          email: seeded.email,
          photos: seeded.photos,
          comments: seeded.comments,
          ms: Date.now() - started,
        },
        'created the sample workspace',
      );
  }
  await announceSampleAccount(config, db, app.log);
  if (!isLoopbackHost(config.host) && config.trustProxy === false)
    app.log.warn(
      'listening beyond loopback with TRUST_PROXY=off: behind a reverse proxy every client shares the proxy address, so sign-in rate limits would apply to everyone at once; set TRUST_PROXY to the hop count (e.g. 1) or the addresses of your proxies there',
    );
  // A hop count trusts whatever connects, so a client reaching the server directly (not through
  // the proxy) could still choose its own IP; addresses name the only peers to believe.
  if (!isLoopbackHost(config.host) && typeof config.trustProxy === 'number')
    app.log.warn(
      `TRUST_PROXY=${config.trustProxy} is a hop count and HOST ${config.host} is reachable from other machines: a client connecting directly could set X-Forwarded-For and choose its own IP; list your proxies' addresses in TRUST_PROXY instead (e.g. TRUST_PROXY=10.0.0.5)`,
    );

  // Removes temp files of abandoned uploads and reports, and stored files no upload or report
  // references.
  const stopSweeper = startSweeper({
    storage,
    config,
    log: app.log,
    findReferencedKeys: (keys) => findReferencedMediaKeys(db, keys),
    findReferencedReportKeys: (keys) => findReferencedReportKeys(db, keys),
  });
  // Deletes dead sessions and ended rate-limit windows.
  const stopHousekeeping = startAuthHousekeeping({ db, config }, app.log);
  // Once the gazetteer has loaded: coordinates for the projects whose location names a place.
  const coordinateBackfill = startCoordinateBackfill({ db }, app.log);
  app.addHook('onClose', async () => {
    stopHousekeeping();
    await coordinateBackfill.stop();
    await stopSweeper();
    await images.close();
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
