import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { pageCsp } from './security-headers.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sitelog-csp-'));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

describe('page Content-Security-Policy', () => {
  it('allows scripts only from the app itself by default', () => {
    const csp = pageCsp(config({}));
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
    expect(csp).not.toContain('unsafe-eval');
  });

  it("allows images, and only images, from the map tile server's origin", () => {
    const csp = pageCsp(
      config({ MAP_TILE_URL: 'https://maps.example.com:8443/t/{z}/{x}/{y}.png' }),
    );
    const directives = csp.split('; ');
    expect(directives).toContain("img-src 'self' data: blob: https://maps.example.com:8443");
    const others = directives.filter((d) => !d.startsWith('img-src '));
    expect(others.join('; ')).not.toContain('maps.example.com');
    expect(csp).not.toContain('tile.openstreetmap.org');
  });

  it('allows every subdomain a {s} tile URL may pick', () => {
    const csp = pageCsp(config({ MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png' }));
    expect(csp).toContain("img-src 'self' data: blob: https://*.tiles.example.org;");
  });

  it('allows images from a virtual-hosted S3 endpoint', () => {
    const csp = pageCsp(
      config({ STORAGE: 's3', S3_BUCKET: 'photos', S3_ENDPOINT: 'https://r2.example.com' }),
    );
    expect(csp).toContain('https://r2.example.com');
    expect(csp).toContain('https://*.r2.example.com');
  });

  it('allows only the endpoint origin for path-style S3', () => {
    const csp = pageCsp(
      config({
        STORAGE: 's3',
        S3_BUCKET: 'photos',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'on',
      }),
    );
    expect(csp).toContain('img-src ');
    expect(csp).toContain('http://127.0.0.1:9000');
    expect(csp).not.toContain('*.127.0.0.1');
  });

  it('lets the bucket in nowhere when the app delivers the media (MEDIA_DELIVERY=app)', () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'photos', S3_ENDPOINT: 'https://minio.internal:9000' };
    expect(pageCsp(config(s3))).toContain('https://minio.internal:9000');
    const csp = pageCsp(config({ ...s3, MEDIA_DELIVERY: 'app' }));
    expect(csp).not.toContain('minio.internal');
    expect(csp).toBe(pageCsp(config({})));
    // AWS itself (no endpoint) the same way.
    const aws = pageCsp(config({ STORAGE: 's3', S3_BUCKET: 'photos', MEDIA_DELIVERY: 'app' }));
    expect(aws).not.toContain('amazonaws');
    expect(pageCsp(config({ STORAGE: 's3', S3_BUCKET: 'photos' }))).toContain(
      'https://*.amazonaws.com',
    );
  });

  it("opens Google's script, API and image hosts only when a Maps key is set", () => {
    const csp = pageCsp(config({ GOOGLE_MAPS_KEY: 'key' }));
    expect(csp).toMatch(
      /script-src 'self' https:\/\/\*\.googleapis\.com https:\/\/\*\.gstatic\.com/,
    );
    expect(csp).toMatch(/connect-src [^;]*https:\/\/\*\.googleapis\.com/);
  });
});
