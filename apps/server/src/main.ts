import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, generatedSecretWarning, loadConfig, type Config } from './config.js';
import { createDatabase, migrateToLatest, migrationStatus, type Database } from './db/database.js';
import { startLeaderLock } from './db/leader-lock.js';
import { seedSampleWorkspace } from './sample/sample-workspace.js';
import { createImageProcessor } from './media/image-processor.js';
import { createMediaLinks } from './media/links.js';
import { createStorage } from './media/storage/index.js';
import { startSweeper } from './media/sweeper.js';
import { startAuthHousekeeping } from './modules/auth/auth.service.js';
import { isLoopbackHost, untouchedSampleAccount } from './modules/auth/sample-account.js';
import { createReadiness, type Readiness } from './modules/health/readiness.js';
import { startCoordinateBackfill, warmPlaces } from './modules/places/places.service.js';
import { findReferencedReportKeys } from './modules/reports/reports.service.js';
import { findReferencedMediaKeys } from './modules/uploads/uploads.repository.js';
import { checkSharedSecret } from './modules/workspace/workspace.service.js';

/** A reason not to start, said as it is (no stack): the operator has something to do. */
class StartRefusal extends Error {}

/** At most this many names in a message; the rest are counted. */
function listNames(names: string[], max = 5): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * Brings the schema to this version, or checks it is there. With MIGRATE_ON_START=off (several
 * instances: `npm run db:migrate` runs once per deploy) a database missing any of this version's
 * migrations is refused: the code would fail on tables or columns it lacks. A database that has
 * migrations this code does not know was migrated by a newer version (a rolling deploy: this
 * instance is an old one still running): it starts, and says so once the log is up (returned).
 */
async function prepareSchema(config: Config, db: Database): Promise<string | null> {
  const { pending, unknown } = await migrationStatus(db);
  const ahead =
    unknown.length === 0
      ? null
      : `The database has migrations this version does not know (${listNames(unknown)}): a ` +
        `newer version migrated it. Starting anyway, as during a rolling deploy; update this ` +
        `instance to the newer version.`;
  if (pending.length === 0) return ahead;
  if (!config.migrateOnStart)
    throw new StartRefusal(
      `The database is not migrated to this version (missing: ${listNames(pending)}). Run ` +
        '`npm run db:migrate` with this configuration, then start again (or set ' +
        'MIGRATE_ON_START=on to migrate at start).',
    );
  // Kysely's migrator refuses a database holding migrations it does not know.
  if (ahead)
    throw new StartRefusal(
      `The database has migrations this version does not know (${listNames(unknown)}) and ` +
        `lacks some of its own (${listNames(pending)}): it was migrated by another line of ` +
        'versions. Start the version that migrated it.',
    );
  await migrateToLatest(db);
  return null;
}

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
  let schemaAhead: string | null;
  try {
    schemaAhead = await prepareSchema(config, db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const storage = createStorage(config);
  const links = createMediaLinks({ config, storage });
  const images = createImageProcessor({
    maxPixels: config.uploads.maxPixels,
    concurrency: config.uploads.concurrency,
    heicDecoder: config.uploads.heicDecoder,
    tempDir: config.uploads.tempDir,
  });
  const readiness = createReadiness();
  const app = await buildApp({ config, db, links, storage, images, readiness });
  if (schemaAhead) app.log.warn(schemaAhead);
  const secretWarning = generatedSecretWarning(config);
  if (secretWarning) app.log.warn(secretWarning);
  await checkSharedSecret({ db, secret: config.secret }, app.log);

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

  // Removes this instance's stale temp files and, on the sweeper leader only (one instance of
  // the database at a time: a PostgreSQL advisory lock), stored files no upload or report
  // references.
  const sweeperLeader = startLeaderLock(config.database, {
    role: 'sweeper',
    retryMs: Math.min(60_000, config.sweepIntervalMs),
    log: app.log,
  });
  const stopSweeper = startSweeper(
    {
      storage,
      config,
      log: app.log,
      findReferencedKeys: (keys) => findReferencedMediaKeys(db, keys),
      findReferencedReportKeys: (keys) => findReferencedReportKeys(db, keys),
    },
    { intervalMs: config.sweepIntervalMs, leader: sweeperLeader },
  );
  // Deletes dead sessions and ended rate-limit windows.
  const stopHousekeeping = startAuthHousekeeping({ db, config }, app.log);
  // Once the gazetteer has loaded: coordinates for the projects whose location names a place.
  const coordinateBackfill = startCoordinateBackfill({ db }, app.log);
  app.addHook('onClose', async () => {
    stopHousekeeping();
    await coordinateBackfill.stop();
    await stopSweeper();
    await sweeperLeader.stop();
    await images.close();
    await storage.close();
    await db.destroy();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void gracefulStop(app, readiness, config, signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // Index the place gazetteer now, in the background, so the first LOCATION keystroke is fast.
  warmPlaces(app.log);
}

/** Resolves after `n` turns of the event loop (each polls for I/O once). */
async function loopTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * SIGTERM or SIGINT: the health check answers 503 `draining` at once (a balancer polling it
 * takes this instance out), and every answer closes its connection. After DRAIN_DELAY_SECONDS
 * the server stops accepting connections and closes idle ones; requests in flight (an upload
 * still sending its body included) finish with their normal answer, then the report queue,
 * background work, storage and database close, and the process exits 0. Whatever is still
 * running SHUTDOWN_TIMEOUT_SECONDS after the close began is cut off: logged, exit 1.
 */
async function gracefulStop(
  app: FastifyInstance,
  readiness: Readiness,
  config: Config,
  signal: string,
): Promise<void> {
  readiness.draining = true;
  const { drainDelayMs, timeoutMs } = config.shutdown;
  app.log.info({ signal, drainDelayMs }, 'draining: the health check answers 503 from now on');
  if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
  // Connections and requests that reached the instance while its event loop was busy are taken
  // in before the close: the drain timer runs before the loop polls again. A turn of the loop
  // accepts them, the next reads their request.
  await loopTurns(3);
  app.log.info({ timeoutMs }, 'shutting down: no new connections; finishing in-flight requests');
  const force = setTimeout(() => {
    app.log.error(
      { timeoutMs },
      `shutdown took longer than SHUTDOWN_TIMEOUT_SECONDS (${timeoutMs / 1000} s): exiting with requests still in flight`,
    );
    process.exit(1);
  }, timeoutMs);
  force.unref();
  // Node's server.close() stops accepting and closes the idle connections at once; a connection
  // accepted in the loop's last turn, its request not read yet, counts as idle, and was reset
  // though nginx had sent a request on it (an upload answered 502 through nginx in 4 of 12
  // cluster stop tests under load). So the idle ones close a few turns after the listener, once
  // what arrived on them has been read (while draining every answer closes its connection, so a
  // balancer keeps none of them idle on purpose).
  const server = app.server;
  const closeIdleConnections = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => undefined;
  let settled = false;
  const closed = app.close().finally(() => (settled = true));
  // Awaited below; handled now too, so a failure while the loop turns is not an unhandled one.
  closed.catch(() => undefined);
  try {
    while (server.listening && !settled) await loopTurns(1);
    await loopTurns(3);
    closeIdleConnections();
    await closed;
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
  app.log.info('stopped');
  process.exit(0);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartRefusal) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
