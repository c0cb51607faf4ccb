import type { APIRequestContext, Page } from '@playwright/test';
import type { ClientConfig } from '@sitelog/shared';
import sharp from 'sharp';
import { expect } from './fixtures';

/*
 * Map tiles in the browser suite: the tests never use the network, so every request for the
 * configured tile server is answered with a tile of our own, and any other host is recorded.
 */

/** A 256 px map tile of our own: a light ground with a darker edge, so the tiling shows. */
const tilePng = sharp({
  create: { width: 256, height: 256, channels: 3, background: { r: 236, g: 232, b: 224 } },
})
  .composite([
    {
      input: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">' +
          '<rect x="0.5" y="0.5" width="255" height="255" fill="none" stroke="#c9c2b4"/>' +
          '<path d="M0 170 C 80 150, 160 200, 256 160" stroke="#ffffff" stroke-width="10" fill="none"/>' +
          '</svg>',
      ),
    },
  ])
  .png()
  .toBuffer();

/** The tile server the app is configured with (GET /api/config), as a request matcher. */
export async function tileServer(request: APIRequestContext) {
  const config = (await (await request.get('/api/config')).json()) as ClientConfig;
  const host = new URL(config.mapTileUrl.replace('{s}.', 'a.')).host;
  const subdomains = config.mapTileUrl.includes('{s}.');
  const bare = subdomains ? host.slice('a.'.length) : host;
  return {
    config,
    matches: (url: URL) => (subdomains ? url.host.endsWith(`.${bare}`) : url.host === bare),
  };
}

/**
 * Answers every tile request with the stub and records the page's requests: `tiles` asked,
 * `stubbed` answered by the stub, `elsewhere` for any other host than the app's and the tiles'.
 */
export async function stubTiles(page: Page, request: APIRequestContext, baseURL: string) {
  const server = await tileServer(request);
  const png = await tilePng;
  const seen = { tiles: [] as string[], stubbed: [] as string[], elsewhere: [] as string[] };
  const app = new URL(baseURL).origin;
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (server.matches(url)) seen.tiles.push(req.url());
    else if (url.origin !== app && !['data:', 'blob:'].includes(url.protocol))
      seen.elsewhere.push(req.url());
  });
  await page.route(
    (url) => server.matches(url),
    async (route) => {
      seen.stubbed.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'image/png', body: png });
    },
  );
  return { ...server, seen };
}

/** Every tile asked for was the stub's to answer, and nothing left for any other host. */
export function expectNoNetwork(seen: { tiles: string[]; stubbed: string[]; elsewhere: string[] }) {
  expect(seen.tiles.length, 'the map asked for tiles').toBeGreaterThan(0);
  expect([...seen.tiles].sort()).toEqual([...seen.stubbed].sort());
  expect(seen.elsewhere).toEqual([]);
}
