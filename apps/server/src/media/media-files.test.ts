import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEDIA_FRESH_SECONDS,
  matchesEtag,
  mediaEtag,
  openSignedMedia,
  type SignedMediaDeps,
} from './media-files.js';
import { signMediaUrl } from './signed-urls.js';
import { createLocalStorage, type Storage } from './storage/index.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const DIR = 'uploads/ab/ab12cd34-0000-4000-8000-000000000000';
const LIVE_SESSION = 7;
let root: string;
let storage: Storage;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'sitelog-media-files-'));
  storage = createLocalStorage(root);
  await storage.put(`${DIR}/preview.webp`, Buffer.from('preview bytes'), 'image/webp');
  await storage.put(`${DIR}/original.jpg`, Buffer.from('original bytes'), 'image/jpeg');
});
afterAll(async () => {
  await storage.close();
  rmSync(root, { recursive: true, force: true });
});

/** The live sessions are the caller's to say; here only LIVE_SESSION is. */
const deps = (): SignedMediaDeps => ({
  secret: SECRET,
  storage,
  isSessionLive: async (id) => id === LIVE_SESSION,
});

/** Signs `key` and opens it the way the media route does, with the URL's own query. */
function open(
  key: string,
  options: {
    sessionId?: number;
    ttlSeconds?: number;
    now?: number;
    ifNoneMatch?: string;
    deps?: SignedMediaDeps;
  } = {},
) {
  const url = new URL(
    signMediaUrl(key, {
      secret: SECRET,
      ttlSeconds: options.ttlSeconds ?? 3600,
      sessionId: options.sessionId ?? LIVE_SESSION,
      ...(options.now === undefined ? {} : { now: options.now }),
    }),
    'http://localhost',
  );
  return openSignedMedia(options.deps ?? deps(), key, Object.fromEntries(url.searchParams), {
    ifNoneMatch: options.ifNoneMatch,
  });
}

describe('openSignedMedia', () => {
  it('opens an inline image for a live session, cacheable briefly, then revalidated', async () => {
    const opened = await open(`${DIR}/preview.webp`);
    if (!opened.ok || !('media' in opened))
      throw new Error(`not opened: ${JSON.stringify(opened)}`);
    expect(opened.media.contentType).toBe('image/webp');
    expect(opened.media.disposition).toBeNull();
    expect(opened.media.maxAgeSeconds).toBe(MEDIA_FRESH_SECONDS);
    expect(opened.media.cacheControl).toBe(
      `private, max-age=${MEDIA_FRESH_SECONDS}, must-revalidate`,
    );
    expect(opened.media.etag).toBe(mediaEtag(`${DIR}/preview.webp`, 'preview bytes'.length));
    expect(await text(opened.media.body)).toBe('preview bytes');
  });

  it('serves an original only as a download', async () => {
    const opened = await open(`${DIR}/original.jpg`);
    if (!opened.ok || !('media' in opened))
      throw new Error(`not opened: ${JSON.stringify(opened)}`);
    expect(opened.media.disposition).toMatch(/^attachment; filename="original\.jpg"/);
    expect(opened.media.cacheControl).toBe('private, no-store');
    expect(opened.media.etag).toBeNull();
    opened.media.body.destroy();
  });

  it('never lets the browser keep an image past its link', async () => {
    // A 60 s link signed 30 s ago (60 s buckets) has 30–90 s left: less than the cache time.
    const opened = await open(`${DIR}/preview.webp`, { ttlSeconds: 60, now: Date.now() - 30_000 });
    if (!opened.ok || !('media' in opened))
      throw new Error(`not opened: ${JSON.stringify(opened)}`);
    expect(opened.media.maxAgeSeconds).toBeLessThan(MEDIA_FRESH_SECONDS);
    opened.media.body.destroy();
  });

  it('answers a revalidation of an unchanged image from its size, without reading it', async () => {
    const key = `${DIR}/preview.webp`;
    const calls: string[] = [];
    const counting: SignedMediaDeps = {
      ...deps(),
      storage: {
        stat: (k) => (calls.push('stat'), storage.stat(k)),
        stream: (k) => (calls.push('stream'), storage.stream(k)),
      },
    };
    const etag = mediaEtag(key, 'preview bytes'.length);
    expect(await open(key, { ifNoneMatch: `"a", ${etag}`, deps: counting })).toEqual({
      ok: true,
      notModified: {
        etag,
        cacheControl: `private, max-age=${MEDIA_FRESH_SECONDS}, must-revalidate`,
      },
    });
    expect(calls).toEqual(['stat']);

    // Another tag: the image itself. A session that has ended: refused before any storage call.
    calls.length = 0;
    const changed = await open(key, { ifNoneMatch: '"other"', deps: counting });
    if (!changed.ok || !('media' in changed)) throw new Error('not opened');
    expect(await text(changed.media.body)).toBe('preview bytes');
    calls.length = 0;
    const ended = { ifNoneMatch: etag, deps: counting, sessionId: LIVE_SESSION + 1 };
    expect(await open(key, ended)).toEqual({ ok: false, reason: 'session_ended' });
    expect(calls).toEqual([]);
    // Gone since: 404, not a 304 for the browser's stale copy.
    const gone = `${DIR}/formatted.jpg`;
    expect(await open(gone, { ifNoneMatch: '*' })).toEqual({ ok: false, reason: 'not_found' });
  });

  it('matches If-None-Match as RFC 9110 does (lists, weak tags, *)', () => {
    const etag = mediaEtag('uploads/ab/x/preview.webp', 10);
    expect(etag).not.toBe(mediaEtag('uploads/ab/x/preview.webp', 11));
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(`"a", W/${etag}`, etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
    expect(matchesEtag('"a", "b"', etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
  });

  it('gives the reason for each refusal', async () => {
    const key = `${DIR}/preview.webp`;
    expect(await open(key, { sessionId: LIVE_SESSION + 1 })).toEqual({
      ok: false,
      reason: 'session_ended',
    });
    expect(await open(key, { now: Date.now() - 7 * 24 * 3600_000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await openSignedMedia(deps(), key, { exp: '1', sid: '7', sig: 'f'.repeat(64) })).toEqual(
      { ok: false, reason: 'invalid' },
    );
    expect(await open(`${DIR}/formatted.jpg`)).toEqual({ ok: false, reason: 'not_found' });
  });
});
