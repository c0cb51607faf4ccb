// The web server of the browser suite through nginx (e2e/playwright.cluster.config.ts): two
// Sitelog instances (the production build) behind the repo's deploy/nginx.conf, on a fresh
// PostgreSQL database and an s3rver bucket, with the sample workspace (cluster/harness.ts).
//
// Ports come from the config through the environment: E2E_PORT (nginx) and E2E_INSTANCE_PORTS
// (the instances, comma-separated). Once up, it writes E2E_CLUSTER_STATE (JSON: the instances
// and nginx's access log file) for the suite's global teardown, which checks that the requests
// reached every instance. SIGTERM (Playwright's graceful shutdown) copies the instances' logs and
// nginx's access log into the artifacts folder, then stops the cluster and drops its database.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startCluster, type Cluster } from '../cluster/harness.js';

export interface ClusterState {
  url: string;
  accessLogFile: string;
  instances: { name: string; port: number; url: string }[];
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (e2e/playwright.cluster.config.ts sets it).`);
  return value;
}

const port = Number(required('E2E_PORT'));
const instancePorts = required('E2E_INSTANCE_PORTS').split(',').map(Number);
const stateFile = required('E2E_CLUSTER_STATE');
const artifactsDir = path.dirname(stateFile);
mkdirSync(artifactsDir, { recursive: true });
// A previous run's state must never stand in for this one's.
rmSync(stateFile, { force: true });

let cluster: Cluster | null = null;
let stopping = false;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (!cluster) return; // still starting: the start below closes it
  try {
    for (const instance of cluster.instances)
      writeFileSync(path.join(artifactsDir, `instance-${instance.name}.log`), instance.output());
    copyFileSync(cluster.accessLogFile, path.join(artifactsDir, 'nginx-access.log'));
  } catch (err) {
    console.error('cluster-server: could not keep the logs:', err);
  }
  await cluster.close();
}

const onSignal = () => {
  void stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

try {
  cluster = await startCluster({
    instances: instancePorts.length,
    port,
    instancePorts,
    sampleData: true,
    production: true,
  });
} catch (err) {
  console.error('cluster-server: the cluster did not start:', err);
  process.exit(1);
}
if (stopping) {
  stopping = false;
  await stop();
  process.exit(0);
}
const state: ClusterState = {
  url: cluster.url,
  accessLogFile: cluster.accessLogFile,
  instances: cluster.instances.map(({ name, port, url }) => ({ name, port, url })),
};
writeFileSync(stateFile, JSON.stringify(state, null, 2));
console.log(
  `cluster-server: nginx ${cluster.url} -> ` +
    cluster.instances.map((i) => `${i.name} ${i.url}`).join(', '),
);
