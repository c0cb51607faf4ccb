// The server's log: one line per request, written without blocking the event loop.
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LogFn } from 'pino';
import type { Config } from '../config.js';

const REDACTED = '[redacted]';
const ERROR_LEVEL = pino.levels.values.error ?? 50;

/**
 * Drops secrets that travel in URLs before a URL reaches the logs: media signatures in the query,
 * invitation tokens in the path (the API's `/api/invitation/{token}…` and the web page
 * `/invite/{token}`, which is served, and logged, by this server too), and the tokens of shared
 * report links (`/api/report/shared/{token}`).
 */
export function redactUrl(url: string): string {
  return url
    .replace(
      /([?&](?:sig|token|signature|X-Amz-Signature|X-Amz-Credential)=)[^&]*/gi,
      `$1${REDACTED}`,
    )
    .replace(/(\/(?:api\/invitation|invite|api\/report\/shared)\/)[^/?#]+/gi, `$1${REDACTED}`);
}

/**
 * Errors logged by the error handler may carry the request's URL (a response that broke its
 * contract names it): redacted like the request line's.
 */
function serializeError(err: Error): pino.SerializedError {
  const out = pino.stdSerializers.err(err);
  if (typeof out.url === 'string') out.url = redactUrl(out.url);
  return out;
}

/**
 * Polled every few seconds (health by load balancers, the bell's unread count by every open tab):
 * logged only at debug. Their failures still reach the log through the error handler.
 */
const QUIET_ROUTES = new Set(['/api/health', '/api/notifications/unread']);

/**
 * The error @fastify/compress logs when a compressed answer's client went away before its end (a
 * phone that left the page while a script was still coming): end-of-stream's "premature close",
 * from the plugin's stream chain. Only the web app's files stream through it, from disk, so
 * nothing failed on the server's side. (Node's own ERR_STREAM_PREMATURE_CLOSE is left an error:
 * elsewhere it can be a source that broke off, such as the bucket.)
 */
function isClientGone(value: unknown): boolean {
  return value instanceof Error && value.message === 'premature close';
}

/** Where every log line goes: stdout, written asynchronously (pino flushes it at exit). */
export function logDestination(destination?: pino.DestinationStream): pino.DestinationStream {
  return destination ?? pino.destination({ dest: 1, sync: false });
}

/**
 * The logger's options: redaction paths (compiled once by pino), a request serializer that
 * keeps method, redacted URL and client address, and the shared destination (an asynchronous
 * stdout: a synchronous write per line was a tenth of a feed's CPU).
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  destination: pino.DestinationStream,
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    stream: destination,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'body.login.password',
        'body.user.password',
        '*.password',
        '*.token',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
      err: serializeError,
    },
    hooks: {
      // @fastify/compress logs a client gone mid-download as an error, and it is none: written at
      // debug, so that an error line keeps meaning something to look into.
      logMethod(args, method, level) {
        if (level >= ERROR_LEVEL && isClientGone(args[0])) {
          this.debug(...args);
          return;
        }
        method.apply(this, args);
      },
    },
  };
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `request.log`, made by pino only when something logs through it. Fastify makes a child
 * logger for every request (its bindings serialized and redacted: 4% of a health check's CPU),
 * and most requests log nothing through it: the access line has a logger of its own, and
 * `request.log` is for warnings and errors. The child, once made, is the one Fastify would have
 * made (same bindings and options), so a line reads the same.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child logger, made on first use. */
  logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;
}
for (const method of LOG_METHODS) {
  Object.defineProperty(RequestLogger.prototype, method, {
    value(this: RequestLogger, ...args: [obj: unknown, msg?: string, ...args: unknown[]]) {
      this.logger()[method](...args);
    },
  });
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first used. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

/**
 * One line per request, when it is answered (Fastify's own logging writes two: one on arrival,
 * one on completion; `disableRequestLogging` turns those off): request id, method, redacted URL,
 * client, status and time. Polled routes only at debug.
 *
 * The line is built here from known fields, so it goes through a logger of its own on the same
 * destination, without the app logger's redaction pass and serializers (a tenth of a small
 * call's CPU); its URL is redacted by `redactUrl`, and nothing else in it can hold a secret.
 */
export function registerRequestLog(
  app: FastifyInstance,
  config: Pick<Config, 'logLevel'>,
  destination: pino.DestinationStream,
): void {
  const access = pino({ level: config.logLevel }, destination);
  app.addHook('onResponse', (request, reply, done) => {
    const level = QUIET_ROUTES.has(request.routeOptions.url ?? '') ? 'debug' : 'info';
    if (access.isLevelEnabled(level))
      access[level](
        {
          reqId: request.id,
          req: { method: request.method, url: redactUrl(request.url), ip: request.ip },
          res: { statusCode: reply.statusCode },
          responseTime: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request completed',
      );
    done();
  });
}
