import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v));

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
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().positive().default(120_000_000),
  IMAGE_CONCURRENCY: z.coerce.number().int().positive().optional(),
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
  TRUST_PROXY: onOff.default(false),
  GOOGLE_MAPS_KEY: z.string().optional(),
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
  uploads: { maxBytes: number; maxPixels: number; concurrency: number; tempDir: string };
  mediaUrlTtlSeconds: number;
  sessions: { idleMs: number; absoluteMs: number };
  loginLimits: { perAccount: number; perIp: number; windowMs: number };
  trustProxy: boolean;
  googleMapsKey: string | null;
}

export class ConfigError extends Error {}

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
  mkdirSync(dataDir, { recursive: true });

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
    },
    mediaUrlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
    sessions: {
      idleMs: e.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: e.SESSION_ABSOLUTE_DAYS * 24 * 3600_000,
    },
    loginLimits: {
      perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: e.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    },
    trustProxy: e.TRUST_PROXY,
    googleMapsKey: e.GOOGLE_MAPS_KEY ?? null,
  };
  return Object.freeze(config);
}
