/**
 * Debian's Chromium (no browser download; CHROMIUM_PATH overrides) and the flags that keep it
 * off the closed network: no updates, sync or QUIC probes. Shared by the browser suite and the
 * benches that drive Chromium (bench/lighthouse.ts, bench/all-projects.ts).
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
