import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v));

// proxy-addr's names for address ranges, accepted by Fastify's trustProxy like addresses.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `off`, a hop count, or the proxies' addresses/CIDRs. `on` (trust every hop) is
 * refused: the client writes the left-most X-Forwarded-For value, so trusting all of it lets
 * every client choose its own IP and walk around the sign-in limits.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    const lower = value.toLowerCase();
    if (['off', 'false', 'no', '0', ''].includes(lower)) return false;
    if (['on', 'true', 'yes'].includes(lower)) {
      ctx.addIssue({
        code: 'custom',
        message:
          `TRUST_PROXY=${value} would trust every hop, so any client could pick its own IP. ` +
          'Give the hop count of your proxies (1 for one nginx in front) or their addresses ' +
          '(e.g. TRUST_PROXY=127.0.0.1 or 10.0.0.0/8, comma-separated).',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          `TRUST_PROXY must be off, a hop count, or comma-separated proxy addresses/CIDRs; ` +
          `not understood: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
const OSM_COPYRIGHT_URL = 'https://www.openstreetmap.org/copyright';

/**
 * MAP_TILE_URL: a raster tile URL template, http(s), with `{z}`, `{x}` and `{y}` (or `{-y}`).
 * Answers the template and the Content-Security-Policy source its tiles come from: the origin,
 * or `*.<rest of the host>` when the first label is Leaflet's subdomain placeholder `{s}`
 * (`https://{s}.tile.example.org/…`); a placeholder anywhere else in the host is refused, since
 * no CSP source could name those hosts.
 */
const tileUrl = z
  .string()
  .trim()
  .transform((template, ctx): { template: string; cspSource: string } => {
    const refuse = (why: string) => {
      ctx.addIssue({
        code: 'custom',
        message: `MAP_TILE_URL ${why} (got ${JSON.stringify(template)}).`,
      });
      return z.NEVER;
    };
    const match = /^(https?):\/\/([^/?#]+)(.*)$/i.exec(template);
    if (!match) return refuse('must be an http:// or https:// URL');
    const [, scheme = '', host = '', rest = ''] = match;
    if (!rest.includes('{z}') || !rest.includes('{x}') || !/\{-?y\}/.test(rest))
      return refuse('must contain {z}, {x} and {y} in its path or query, e.g. ' + OSM_TILE_URL);
    const subdomains = host.startsWith('{s}.');
    const bareHost = subdomains ? host.slice('{s}.'.length) : host;
    if (bareHost.includes('{') || bareHost.includes('}'))
      return refuse('may have a placeholder in its host only as its first label ({s})');
    let url: URL;
    try {
      url = new URL(`${scheme}://${bareHost}/`);
    } catch {
      return refuse('has a host that is not valid');
    }
    if (url.username || url.password) return refuse('must not hold a user name or password');
    const cspSource = subdomains ? `${url.protocol}//*.${url.host}` : url.origin;
    return { template, cspSource };
  });

/** An http(s) URL for a link shown to users, or empty for none. */
const linkUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), {
      message: `${name} must be an http:// or https:// URL, or empty for no link.`,
    })
    .refine((value) => value === '' || URL.canParse(value), {
      message: `${name} is not a valid URL.`,
    });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'DATABASE_URL must start with postgres:// or sqlite:')
    .optional(),
  MIGRATE_ON_START: onOff.default(true),
  SAMPLE_DATA: onOff.default(true),
  SECRET: z.string().min(32, 'SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: onOff.default(false),
  MEDIA_DELIVERY: z
    .enum(['bucket', 'app'], {
      error:
        'MEDIA_DELIVERY must be bucket (browsers fetch media from the bucket through presigned ' +
        'URLs) or app (the instances serve it through signed /media links).',
    })
    .optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().positive().default(120_000_000),
  IMAGE_CONCURRENCY: z.coerce.number().int().positive().optional(),
  HEIC_DECODER: z.enum(['auto', 'native', 'wasm']).default('auto'),
  REPORT_CONCURRENCY: z.coerce
    .number({ error: 'REPORT_CONCURRENCY must be a number of reports.' })
    .int('REPORT_CONCURRENCY must be a whole number.')
    .min(0, 'REPORT_CONCURRENCY must be 0 or more (0: this instance makes no PDFs).')
    .max(16, 'REPORT_CONCURRENCY must be at most 16.')
    .default(1),
  MEDIA_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(6 * 3600),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(14 * 24 * 60),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().int().positive().default(30),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_IPS: z.coerce.number().int().positive().default(30),
  TRUST_PROXY: trustProxy.default(false),
  GOOGLE_MAPS_KEY: z.string().optional(),
  // prefault: the default goes through the checks and gives the CSP source like a set value.
  MAP_TILE_URL: tileUrl.prefault(OSM_TILE_URL),
  MAP_ATTRIBUTION: z
    .string()
    .trim()
    .min(1, 'MAP_ATTRIBUTION must not be empty: tile servers require their attribution.')
    .max(300, 'MAP_ATTRIBUTION must be at most 300 characters.')
    // eslint-disable-next-line no-control-regex -- the pattern exists to refuse control characters
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'MAP_ATTRIBUTION must be one line of plain text.')
    .optional(),
  MAP_ATTRIBUTION_URL: linkUrl('MAP_ATTRIBUTION_URL').optional(),
  DRAIN_DELAY_SECONDS: z.coerce
    .number({ error: 'DRAIN_DELAY_SECONDS must be a number of seconds.' })
    .int('DRAIN_DELAY_SECONDS must be a whole number of seconds.')
    .min(0, 'DRAIN_DELAY_SECONDS must be 0 or more.')
    .max(600, 'DRAIN_DELAY_SECONDS must be at most 600 (10 minutes).')
    .default(0),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds.' })
    .int('SHUTDOWN_TIMEOUT_SECONDS must be a whole number of seconds.')
    .min(1, 'SHUTDOWN_TIMEOUT_SECONDS must be at least 1.')
    .max(3600, 'SHUTDOWN_TIMEOUT_SECONDS must be at most 3600 (an hour).')
    .default(30),
  SWEEP_INTERVAL_SECONDS: z.coerce
    .number({ error: 'SWEEP_INTERVAL_SECONDS must be a number of seconds.' })
    .int('SWEEP_INTERVAL_SECONDS must be a whole number of seconds.')
    .min(1, 'SWEEP_INTERVAL_SECONDS must be at least 1.')
    .max(7 * 24 * 3600, 'SWEEP_INTERVAL_SECONDS must be at most 604800 (a week).')
    .default(3600),
  FAR_FROM_SITE_KM: z.coerce
    .number({ error: 'FAR_FROM_SITE_KM must be a number of kilometres.' })
    .positive('FAR_FROM_SITE_KM must be more than 0.')
    .max(20_000, 'FAR_FROM_SITE_KM must be at most 20000 (half the Earth).')
    .default(2),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  migrateOnStart: boolean;
  sampleData: boolean;
  secret: string;
  /** Where the secret came from: `SECRET`, or generated into (and read from) `DATA_DIR/secret`. */
  secretSource: 'env' | 'data-dir';
  logLevel: string;
  webDistDir: string | null;
  storage:
    | { kind: 'local'; dir: string }
    | {
        kind: 's3';
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  uploads: {
    maxBytes: number;
    maxPixels: number;
    concurrency: number;
    tempDir: string;
    /** Who decodes HEIC: Debian's libheif when installed (`auto`), or forced. */
    heicDecoder: 'auto' | 'native' | 'wasm';
  };
  /**
   * Report PDFs made at once by this instance (the rest wait in the database's queue); 0: none,
   * another instance on the same database makes them.
   */
  reports: { concurrency: number };
  /**
   * How browsers get media: `bucket` (S3 only) hands out presigned bucket URLs, so the bucket must
   * be reachable from browsers; `app` hands out signed, session-bound `/media/…` links that the
   * instances serve from the storage (always so on local disk).
   */
  mediaDelivery: 'bucket' | 'app';
  mediaUrlTtlSeconds: number;
  sessions: { idleMs: number; absoluteMs: number };
  loginLimits: { perAccount: number; perIp: number; perAccountAllIps: number; windowMs: number };
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  /**
   * Stopping (SIGTERM): how long the health check says `draining` before the server stops
   * accepting connections (for balancers that poll it), then how long in-flight requests get.
   */
  shutdown: { drainDelayMs: number; timeoutMs: number };
  /** How often the sweeper leader removes orphaned media and every instance its stale temp files. */
  sweepIntervalMs: number;
  googleMapsKey: string | null;
  maps: {
    /** Raster tile URL template for Leaflet. */
    tileUrl: string;
    /** The Content-Security-Policy source the tiles come from (img-src). */
    tileSource: string;
    /** Plain text, shown as text. */
    attribution: string;
    attributionUrl: string | null;
    farFromSiteKm: number;
  };
}

export class ConfigError extends Error {}

/**
 * TRUST_PROXY in the form Fastify takes. Fastify 5 ignores a bare hop count (it trusts no hop,
 * failing closed), so a count becomes the function proxy-addr calls for each hop: hop 0 is the
 * socket peer, hop 1 the right-most X-Forwarded-For value, and so on.
 */
export function fastifyTrustProxy(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/** Reads the signing secret from DATA_DIR, creating it on first start. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length < 32)
      throw new ConfigError(
        `Invalid configuration:\n  ${file} holds a secret shorter than 32 characters; delete it to generate a new one (signed media links will change).`,
      );
    return existing;
  }
  const secret = randomBytes(32).toString('base64url');
  // Written beside and renamed, so a crash never leaves a half-written secret.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, secret, { mode: 0o600 });
  renameSync(temp, file);
  return secret;
}

/**
 * The warning to log at start when several instances are likely (PostgreSQL or a bucket) but the
 * media-signing secret was generated into this instance's DATA_DIR: another instance has its own,
 * and refuses the links this one signs. Null when there is nothing to say.
 */
export function generatedSecretWarning(
  config: Pick<Config, 'secretSource' | 'database' | 'storage' | 'dataDir'>,
): string | null {
  if (config.secretSource === 'env') return null;
  if (config.database.kind !== 'postgres' && config.storage.kind !== 's3') return null;
  return (
    `SECRET is not set, so the media-signing secret was generated into ` +
    `${path.join(config.dataDir, 'secret')}. Other instances of this database need the same ` +
    `secret: set SECRET to one value on every instance, or media links signed here are refused ` +
    `there.`
  );
}

/**
 * Parses the environment once into a frozen, typed configuration.
 * Nothing else in the server reads `process.env`.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  // It holds the database, the signing secret and the photos: private to the server account.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  let database: Config['database'];
  if (e.DATABASE_URL?.startsWith('postgres')) database = { kind: 'postgres', url: e.DATABASE_URL };
  else if (e.DATABASE_URL?.startsWith('sqlite:'))
    database = { kind: 'sqlite', file: path.resolve(e.DATABASE_URL.slice('sqlite:'.length)) };
  else database = { kind: 'sqlite', file: path.join(dataDir, 'sitelog.db') };

  let storage: Config['storage'];
  if (e.STORAGE === 's3') {
    if (!e.S3_BUCKET)
      throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE=s3');
    storage = {
      kind: 's3',
      bucket: e.S3_BUCKET,
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    };
  } else {
    storage = { kind: 'local', dir: path.join(dataDir, 'media') };
  }
  // Refused rather than ignored: it says browsers load media from a bucket, and there is none.
  // A deployment that sets it most likely meant STORAGE=s3 too, and without it each instance
  // would keep its photos on its own disk.
  if (e.MEDIA_DELIVERY === 'bucket' && storage.kind === 'local')
    throw new ConfigError(
      'Invalid configuration:\n  MEDIA_DELIVERY: bucket needs STORAGE=s3 (there is no bucket for ' +
        'browsers to fetch from: media on local disk is always served by the app through /media ' +
        'links). Set STORAGE=s3 and the S3_* settings, or remove MEDIA_DELIVERY.',
    );
  const mediaDelivery = storage.kind === 's3' ? (e.MEDIA_DELIVERY ?? 'bucket') : 'app';

  const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    migrateOnStart: e.MIGRATE_ON_START,
    sampleData: e.SAMPLE_DATA,
    secret: e.SECRET ?? loadOrCreateSecret(dataDir),
    secretSource: e.SECRET === undefined ? 'data-dir' : 'env',
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR
      ? path.resolve(e.WEB_DIST_DIR)
      : e.NODE_ENV === 'production'
        ? defaultWebDist
        : null,
    storage,
    uploads: {
      maxBytes: e.UPLOAD_MAX_BYTES,
      maxPixels: e.UPLOAD_MAX_PIXELS,
      concurrency: e.IMAGE_CONCURRENCY ?? 2,
      tempDir: path.join(dataDir, 'tmp'),
      heicDecoder: e.HEIC_DECODER,
    },
    reports: { concurrency: e.REPORT_CONCURRENCY },
    mediaDelivery,
    mediaUrlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
    sessions: {
      idleMs: e.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: e.SESSION_ABSOLUTE_DAYS * 24 * 3600_000,
    },
    loginLimits: {
      perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP,
      perAccountAllIps: e.LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_IPS,
      windowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    },
    trustProxy: e.TRUST_PROXY,
    shutdown: {
      drainDelayMs: e.DRAIN_DELAY_SECONDS * 1000,
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    },
    sweepIntervalMs: e.SWEEP_INTERVAL_SECONDS * 1000,
    googleMapsKey: e.GOOGLE_MAPS_KEY ?? null,
    maps: {
      tileUrl: e.MAP_TILE_URL.template,
      tileSource: e.MAP_TILE_URL.cspSource,
      attribution: e.MAP_ATTRIBUTION ?? OSM_ATTRIBUTION,
      // OpenStreetMap's copyright page goes with its default text only: a custom attribution
      // links where MAP_ATTRIBUTION_URL says, or nowhere.
      attributionUrl:
        (e.MAP_ATTRIBUTION_URL ?? (e.MAP_ATTRIBUTION === undefined ? OSM_COPYRIGHT_URL : '')) ||
        null,
      farFromSiteKm: e.FAR_FROM_SITE_KM,
    },
  };
  return Object.freeze(config);
}
