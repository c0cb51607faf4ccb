// The browser suite through nginx (e2e/playwright.cluster.config.ts) proves nothing about two
// instances unless its requests really reached both. This global teardown runs while the cluster
// is still up (Playwright stops the web server after it), reads nginx's access log (one line per
// request, `upstream=<address>`) and fails the run when an instance served less than a fair share.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClusterState } from './cluster-server.js';

/** Each instance's least share of the requests nginx passed on (an even split is 1 / count). */
const MIN_SHARE_OF_EVEN = 0.5;
/** Fewer requests than this and the split says nothing: the suite did not really run. */
const MIN_REQUESTS = 100;

/** Requests per upstream address; a retried request counts for the address that answered it. */
export function countUpstreams(accessLog: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of accessLog.split('\n')) {
    const match = / upstream=(\S+(?:, \S+)*) upstream_status=/.exec(line);
    if (!match) continue;
    const answered = match[1]!.split(', ').at(-1)!;
    counts.set(answered, (counts.get(answered) ?? 0) + 1);
  }
  return counts;
}

export default function checkBothInstancesServed(): void {
  const stateFile = process.env.E2E_CLUSTER_STATE;
  if (!stateFile) throw new Error('E2E_CLUSTER_STATE is not set.');
  let state: ClusterState;
  try {
    state = JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;
  } catch {
    throw new Error(
      `The cluster's state (${stateFile}) is missing: did e2e/cluster-server.ts start?`,
    );
  }
  const counts = countUpstreams(readFileSync(state.accessLogFile, 'utf8'));
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const perInstance = state.instances.map((instance) => ({
    ...instance,
    requests: counts.get(`127.0.0.1:${instance.port}`) ?? 0,
  }));
  const minShare = MIN_SHARE_OF_EVEN / state.instances.length;
  const lines = perInstance.map(
    (i) =>
      `  instance ${i.name} (${i.url}): ${i.requests} requests, ` +
      `${total ? ((100 * i.requests) / total).toFixed(1) : '0'}%`,
  );
  const summary =
    `nginx passed ${total} requests to the instances:\n${lines.join('\n')}\n` +
    `(each must serve at least ${(100 * minShare).toFixed(0)}% of at least ${MIN_REQUESTS})\n`;
  writeFileSync(path.join(path.dirname(stateFile), 'nginx-summary.txt'), summary);
  console.log(`\n${summary}`);
  if (total < MIN_REQUESTS)
    throw new Error(`Only ${total} requests went through nginx: the suite did not really run.`);
  const starved = perInstance.filter((i) => i.requests < minShare * total);
  if (starved.length > 0)
    throw new Error(
      `nginx did not spread the suite over the instances: ` +
        starved.map((i) => `instance ${i.name} served ${i.requests} of ${total}`).join(', ') +
        ` (each must serve at least ${(100 * minShare).toFixed(0)}%).`,
    );
}
