import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type Config } from './config.js';
import type { Database } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { LARGE_RESPONSE, registerCompression } from './http/compression.js';
import { registerErrorHandler } from './http/error-handler.js';
import {
  lazyRequestLogger,
  logDestination,
  loggerOptions,
  registerRequestLog,
} from './http/request-log.js';
import { endStalledConnections } from './http/stalled-connections.js';
import { AppError, forbidden } from './errors.js';
import { refuseEncodedMultipart } from './http/request-body.js';
import { decodedPath, isApiRequest } from './http/request-path.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { createSerializerCompiler } from './http/serializer.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.js';
import { commentRoutes } from './modules/comments/comments.routes.js';
import { eventRoutes } from './modules/events/events.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { createReadiness, type Readiness } from './modules/health/readiness.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { placesRoutes } from './modules/places/places.routes.js';
import { projectRoutes } from './modules/projects/projects.routes.js';
import { createReportQueue } from './modules/reports/report-generator.js';
import { reportRoutes } from './modules/reports/reports.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { mediaRoutes } from './modules/uploads/media.routes.js';
import { uploadRoutes } from './modules/uploads/uploads.routes.js';
import { invitationRoutes } from './modules/users/invitations.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { workspaceRoutes } from './modules/workspace/workspace.routes.js';
import type { ImageProcessor } from './media/image-processor.js';
import type { MediaLinks } from './media/links.js';
import type { Storage } from './media/storage/index.js';

export interface AppDeps {
  config: Config;
  db: Database;
  links: MediaLinks;
  storage: Storage;
  images: ImageProcessor;
  /**
   * Set to draining by main.ts when the process is asked to stop (the health check answers 503
   * `draining`); a fresh one, never draining, unless given.
   */
  readiness?: Readiness;
  /** Body-idle limit of the upload call (default `UPLOAD_IDLE_TIMEOUT_MS`); tests shorten it. */
  uploadIdleTimeoutMs?: number;
  /** Where log lines go (default: stdout, asynchronously); tests read them. */
  logDestination?: DestinationStream;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answer requests a browser marks cross-site (a shared report's link opened from a mail),
     * which every other `/api` route refuses.
     */
    allowCrossSite?: boolean;
  }
}

/** Builds the Fastify app: plugins, error handler and every module, registered explicitly. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const destination = logDestination(deps.logDestination);
  const app = Fastify({
    logger: loggerOptions(config, destination),
    // Our own one line per request (registerRequestLog), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    genReqId: () => randomUUID(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 256 * 1024,
    requestTimeout: 300_000,
    // No socket timeout (Fastify's connectionTimeout re-arms a timer on every read and write):
    // connections that stall are ended by a periodic check instead (endStalledConnections).
    keepAliveTimeout: 10_000,
    // A HEAD request must never reach the spec's state-changing GETs.
    exposeHeadRoutes: false,
    // A request that reaches a connection still open once the close began (a balancer sent it as
    // the instance stopped accepting) is served, with Connection: close as every answer while
    // draining: the process waits for it anyway, and Fastify's own 503 (not our error shape) went
    // through nginx to the client, which had done nothing wrong.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler({ checkContract: config.env === 'test' }));
  registerRequestLog(app, config, destination);
  registerErrorHandler(app);
  registerSecurityHeaders(app, config);
  const stopStalledCheck = endStalledConnections(app.server);
  app.addHook('onClose', (_instance, done) => {
    stopStalledCheck();
    done();
  });

  // The SPA is same-origin; a cross-site request to the API is never legitimate, but for a shared
  // report's public link (`allowCrossSite`), which people open from their mail.
  app.addHook('onRequest', (request, _reply, done) => {
    if (
      request.headers['sec-fetch-site'] === 'cross-site' &&
      isApiRequest(request) &&
      request.routeOptions.config.allowCrossSite !== true
    )
      done(forbidden('Cross-site requests are not allowed.'));
    else done();
  });
  registerAuth(app, deps);
  // While draining every answer closes its connection, so keep-alive clients (the balancer's
  // pool) reconnect, to another instance; and a request in flight when the server closes does
  // not hold its idle connection (and the close) open until the keep-alive timeout.
  const readiness = deps.readiness ?? createReadiness();
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (readiness.draining) void reply.header('connection', 'close');
    done();
  });
  // Before @fastify/compress's preParsing hook would wrap a multipart body nobody reads.
  refuseEncodedMultipart(app);

  // Large lists (all projects: ~900 KB at 10,000 projects) go out brotli/gzip-compressed; routes
  // mark themselves with `compress: LARGE_RESPONSE`.
  await registerCompression(app);

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Sitelog API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  // Uploads: one file per request, streamed (never buffered); a handful of small text parts.
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: config.uploads.maxBytes,
      files: 1,
      fields: 10,
      fieldSize: 64 * 1024,
      parts: 12,
      headerPairs: 50,
    },
  });
  app.get('/api/docs', { config: { access: 'public' }, compress: LARGE_RESPONSE }, async () =>
    app.swagger(),
  );

  healthRoutes(app, { ...deps, readiness });
  authRoutes(app, deps);
  clientConfigRoutes(app, deps);
  placesRoutes(app);
  projectRoutes(app, deps);
  userRoutes(app, deps);
  invitationRoutes(app, deps);
  uploadRoutes(app, deps);
  searchRoutes(app, deps);
  eventRoutes(app, deps);
  notificationRoutes(app, deps);
  commentRoutes(app, deps);
  // Report PDFs are made off the request path, REPORT_CONCURRENCY at once; reports left queued
  // by an earlier process are taken up once the app is ready. Stopped before the database closes.
  const reportQueue = createReportQueue(
    { db: deps.db, storage: deps.storage, config, log: app.log },
    { concurrency: config.reports.concurrency },
  );
  app.addHook('onReady', () => reportQueue.start());
  app.addHook('preClose', () => reportQueue.close());
  reportRoutes(app, { ...deps, reportQueue });
  workspaceRoutes(app, deps);
  mediaRoutes(app, deps);

  await registerWebApp(app, config);
  return app;
}

/** Serves the built SPA (production) with history fallback; `/api` misses stay JSON 404s. */
async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const dist = config.webDistDir;
  const hasWeb = dist !== null && existsSync(path.join(dist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // Our own cache headers below; the plugin's default (max-age=0) would override them.
      cacheControl: false,
      // The build's `.br` and `.gz` of each text file (apps/web/vite.config.ts) are sent as they
      // are; a file without them is compressed on the way out (http/compression.ts).
      preCompressed: true,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // The same URL answers in br, gzip or plain: a shared cache keeps them apart.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = decodedPath(request);
    // Pages are extension-less client routes; a missing asset (an old tab after a deploy) must
    // be a 404, not index.html served as a script.
    const isPage =
      hasWeb &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiRequest(request) &&
      !path.startsWith('/media') &&
      !path.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (!isPage)
      throw new AppError(
        404,
        'not_found',
        `No route for ${request.method} ${request.url.split('?')[0]}.`,
      );
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
