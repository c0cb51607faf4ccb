import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
});
