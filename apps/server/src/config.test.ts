import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, generatedSecretWarning, loadConfig } from './config.js';

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'sitelog-config-'));

describe('loadConfig', () => {
  it('creates a missing data folder private to the server account (0700)', () => {
    const dir = path.join(freshDir(), 'new', 'data');
    loadConfig({ DATA_DIR: dir });
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
  });

  it('has embedded defaults: SQLite and local media in DATA_DIR, loopback, port 3000', () => {
    const dir = freshDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.database).toEqual({ kind: 'sqlite', file: path.join(dir, 'sitelog.db') });
    expect(config.storage).toEqual({ kind: 'local', dir: path.join(dir, 'media') });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('generates a signing secret once and keeps it', () => {
    const dir = freshDir();
    const first = loadConfig({ DATA_DIR: dir }).secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).secret).toBe(first);
    expect(readFileSync(path.join(dir, 'secret'), 'utf8')).toBe(first);
  });

  it('refuses a short secret file with a clear message', () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, 'secret'), 'short');
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/shorter than 32/);
  });

  it('explains invalid settings', () => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: freshDir(), DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must start with postgres/,
    );
    expect(() => loadConfig({ DATA_DIR: freshDir(), STORAGE: 's3' })).toThrow(/S3_BUCKET/);
  });

  it('chooses PostgreSQL from DATABASE_URL', () => {
    const config = loadConfig({ DATA_DIR: freshDir(), DATABASE_URL: 'postgres://u@h/db' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db' });
  });

  it.each([
    ['off', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.5', ['10.0.0.5']],
    ['10.0.0.5, 10.0.0.0/8,::1,fd00::/8', ['10.0.0.5', '10.0.0.0/8', '::1', 'fd00::/8']],
    ['loopback', ['loopback']],
  ])('reads TRUST_PROXY=%s as a hop count or a list of proxies', (value, expected) => {
    expect(loadConfig({ DATA_DIR: freshDir(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('defaults TRUST_PROXY to off', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).trustProxy).toBe(false);
  });

  it.each(['on', 'true', 'yes'])(
    'refuses TRUST_PROXY=%s, which would let every client choose its own IP',
    (value) => {
      const load = () => loadConfig({ DATA_DIR: freshDir(), TRUST_PROXY: value });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/TRUST_PROXY.*hop count.*addresses/s);
    },
  );

  it.each(['-1', '1.5', 'proxy.example.com', '10.0.0.0/33', '10.0.0.1,,'])(
    'refuses TRUST_PROXY=%s with a clear message',
    (value) => {
      expect(() => loadConfig({ DATA_DIR: freshDir(), TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );

  it('reads the per-account cap across IPs', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).loginLimits.perAccountAllIps).toBe(30);
    expect(
      loadConfig({ DATA_DIR: freshDir(), LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_IPS: '5' }).loginLimits
        .perAccountAllIps,
    ).toBe(5);
  });

  it('defaults the maps to OpenStreetMap tiles, with its attribution and link, and 2 km', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).maps).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileSource: 'https://tile.openstreetmap.org',
      attribution: '© OpenStreetMap contributors',
      attributionUrl: 'https://www.openstreetmap.org/copyright',
      farFromSiteKm: 2,
    });
  });

  it.each([
    ['https://tiles.example.com:8443/osm/{z}/{x}/{y}.png?key=k', 'https://tiles.example.com:8443'],
    ['https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', 'https://*.tile.example.org'],
    ['http://127.0.0.1:8080/tms/{z}/{x}/{-y}.png', 'http://127.0.0.1:8080'],
  ])('reads MAP_TILE_URL=%s and the origin its tiles come from', (url, source) => {
    const { maps } = loadConfig({ DATA_DIR: freshDir(), MAP_TILE_URL: url });
    expect(maps.tileUrl).toBe(url);
    expect(maps.tileSource).toBe(source);
  });

  it.each([
    ['ftp://tiles.example.com/{z}/{x}/{y}.png', /http:\/\/ or https:\/\//],
    ['tile.openstreetmap.org/{z}/{x}/{y}.png', /http:\/\/ or https:\/\//],
    ['https://tiles.example.com/{z}/{x}.png', /\{z\}, \{x\} and \{y\}/],
    ['https://a.{s}.example.com/{z}/{x}/{y}.png', /first label/],
    ['https://user:secret@tiles.example.com/{z}/{x}/{y}.png', /user name or password/],
    ['https://exa mple.com/{z}/{x}/{y}.png', /host that is not valid/],
  ])('refuses MAP_TILE_URL=%s with a clear message', (url, message) => {
    const load = () => loadConfig({ DATA_DIR: freshDir(), MAP_TILE_URL: url });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/MAP_TILE_URL/);
    expect(load).toThrow(message);
  });

  it('links a custom attribution only where MAP_ATTRIBUTION_URL says', () => {
    const custom = loadConfig({ DATA_DIR: freshDir(), MAP_ATTRIBUTION: '© Example Maps' }).maps;
    expect(custom).toMatchObject({ attribution: '© Example Maps', attributionUrl: null });
    const linked = loadConfig({
      DATA_DIR: freshDir(),
      MAP_ATTRIBUTION: '© Example Maps',
      MAP_ATTRIBUTION_URL: 'https://maps.example.com/terms',
    }).maps;
    expect(linked.attributionUrl).toBe('https://maps.example.com/terms');
    const unlinked = loadConfig({ DATA_DIR: freshDir(), MAP_ATTRIBUTION_URL: '' }).maps;
    expect(unlinked).toMatchObject({
      attribution: '© OpenStreetMap contributors',
      attributionUrl: null,
    });
  });

  it.each([
    [{ MAP_ATTRIBUTION: '  ' }, /MAP_ATTRIBUTION must not be empty/],
    [{ MAP_ATTRIBUTION: 'two\nlines' }, /MAP_ATTRIBUTION must be one line/],
    [{ MAP_ATTRIBUTION_URL: 'javascript:alert(1)' }, /MAP_ATTRIBUTION_URL must be an http/],
    [{ FAR_FROM_SITE_KM: '0' }, /FAR_FROM_SITE_KM must be more than 0/],
    [{ FAR_FROM_SITE_KM: 'far' }, /FAR_FROM_SITE_KM must be a number/],
  ])('refuses the map setting %o with a clear message', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), ...env })).toThrow(message);
  });

  it('reads FAR_FROM_SITE_KM in kilometres, fractions allowed', () => {
    expect(loadConfig({ DATA_DIR: freshDir(), FAR_FROM_SITE_KM: '0.5' }).maps.farFromSiteKm).toBe(
      0.5,
    );
  });

  it('makes one report PDF at a time unless REPORT_CONCURRENCY says otherwise (0: none here)', () => {
    expect(loadConfig({ DATA_DIR: freshDir() }).reports).toEqual({ concurrency: 1 });
    expect(loadConfig({ DATA_DIR: freshDir(), REPORT_CONCURRENCY: '0' }).reports.concurrency).toBe(
      0,
    );
    expect(() => loadConfig({ DATA_DIR: freshDir(), REPORT_CONCURRENCY: '-1' })).toThrow(
      /REPORT_CONCURRENCY must be 0 or more/,
    );
    expect(() => loadConfig({ DATA_DIR: freshDir(), REPORT_CONCURRENCY: 'two' })).toThrow(
      /REPORT_CONCURRENCY must be a number of reports/,
    );
  });

  it('stops at once by default and gives in-flight requests 30 s; sweeps hourly', () => {
    const config = loadConfig({ DATA_DIR: freshDir() });
    expect(config.shutdown).toEqual({ drainDelayMs: 0, timeoutMs: 30_000 });
    expect(config.sweepIntervalMs).toBe(3600_000);
  });

  it('reads DRAIN_DELAY_SECONDS, SHUTDOWN_TIMEOUT_SECONDS and SWEEP_INTERVAL_SECONDS in seconds', () => {
    const config = loadConfig({
      DATA_DIR: freshDir(),
      DRAIN_DELAY_SECONDS: '10',
      SHUTDOWN_TIMEOUT_SECONDS: '90',
      SWEEP_INTERVAL_SECONDS: '600',
    });
    expect(config.shutdown).toEqual({ drainDelayMs: 10_000, timeoutMs: 90_000 });
    expect(config.sweepIntervalMs).toBe(600_000);
  });

  it('delivers media from the bucket on S3 by default, and from the app on local disk', () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'photos' };
    expect(loadConfig({ DATA_DIR: freshDir(), ...s3 }).mediaDelivery).toBe('bucket');
    expect(loadConfig({ DATA_DIR: freshDir(), ...s3, MEDIA_DELIVERY: 'app' }).mediaDelivery).toBe(
      'app',
    );
    expect(
      loadConfig({ DATA_DIR: freshDir(), ...s3, MEDIA_DELIVERY: 'bucket' }).mediaDelivery,
    ).toBe('bucket');
    expect(loadConfig({ DATA_DIR: freshDir() }).mediaDelivery).toBe('app');
    expect(loadConfig({ DATA_DIR: freshDir(), MEDIA_DELIVERY: 'app' }).mediaDelivery).toBe('app');
  });

  it('refuses MEDIA_DELIVERY=bucket without a bucket, saying what to set', () => {
    const load = () => loadConfig({ DATA_DIR: freshDir(), MEDIA_DELIVERY: 'bucket' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/MEDIA_DELIVERY: bucket needs STORAGE=s3 .*served by the app/);
  });

  it.each(['', 'nginx', 'Bucket'])('refuses MEDIA_DELIVERY=%o, naming the two values', (value) => {
    const load = () =>
      loadConfig({ DATA_DIR: freshDir(), STORAGE: 's3', S3_BUCKET: 'p', MEDIA_DELIVERY: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/MEDIA_DELIVERY must be bucket \(.*\) or app \(/);
  });

  it.each([
    ['DRAIN_DELAY_SECONDS', '-1', /DRAIN_DELAY_SECONDS must be 0 or more/],
    ['DRAIN_DELAY_SECONDS', '1.5', /DRAIN_DELAY_SECONDS must be a whole number of seconds/],
    ['DRAIN_DELAY_SECONDS', 'soon', /DRAIN_DELAY_SECONDS must be a number of seconds/],
    ['DRAIN_DELAY_SECONDS', '601', /DRAIN_DELAY_SECONDS must be at most 600/],
    ['SHUTDOWN_TIMEOUT_SECONDS', '0', /SHUTDOWN_TIMEOUT_SECONDS must be at least 1/],
    ['SHUTDOWN_TIMEOUT_SECONDS', 'never', /SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds/],
    ['SWEEP_INTERVAL_SECONDS', '0', /SWEEP_INTERVAL_SECONDS must be at least 1/],
    ['SWEEP_INTERVAL_SECONDS', '604801', /SWEEP_INTERVAL_SECONDS must be at most 604800/],
  ])('refuses %s=%s with a clear message', (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), [name]: value })).toThrow(message);
  });
});

describe('generatedSecretWarning', () => {
  it('says nothing when SECRET is set, or on SQLite with local media (one instance)', () => {
    expect(
      generatedSecretWarning(
        loadConfig({
          DATA_DIR: freshDir(),
          SECRET: 'x'.repeat(32),
          DATABASE_URL: 'postgres://h/db',
        }),
      ),
    ).toBeNull();
    expect(generatedSecretWarning(loadConfig({ DATA_DIR: freshDir() }))).toBeNull();
  });

  it.each([
    ['on PostgreSQL', { DATABASE_URL: 'postgres://h/db' }],
    ['with a bucket', { STORAGE: 's3', S3_BUCKET: 'media' }],
  ])('warns %s that the generated secret must be shared', (_where, env) => {
    const dir = freshDir();
    const config = loadConfig({ DATA_DIR: dir, ...env });
    expect(config.secretSource).toBe('data-dir');
    expect(generatedSecretWarning(config)).toBe(
      `SECRET is not set, so the media-signing secret was generated into ${path.join(dir, 'secret')}. ` +
        'Other instances of this database need the same secret: set SECRET to one value on every ' +
        'instance, or media links signed here are refused there.',
    );
  });
});
