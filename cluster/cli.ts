// `npm run cluster`: several Sitelog instances behind nginx on one PostgreSQL database and one
// S3 bucket (s3rver), on this machine, until Ctrl-C. See README "Running several instances".
//
//   npm run cluster -- --instances 3 --port 8080
//   DATABASE_URL=postgres://… npm run cluster     (that database as it is, instead of a fresh one)
import { parseArgs } from 'node:util';
import { startCluster } from './harness.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '2' },
    port: { type: 'string' },
    'private-postgres': { type: 'boolean', default: false },
    'no-sample': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`Usage: npm run cluster -- [--instances N] [--port P] [--private-postgres] [--no-sample]

Starts N Sitelog instances (default 2) behind nginx (deploy/nginx.conf) on one PostgreSQL database
and one S3-compatible bucket (s3rver, its own process), with the sample workspace.
  --instances N        app instances (1-8)
  --port P             nginx's port (default: a free one)
  --private-postgres   a PostgreSQL server of its own (initdb) instead of a fresh database on
                       TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432)
  --no-sample          no sample workspace
DATABASE_URL set: that database, as it is (it must be migrated or empty).
Logs and data are in a temp folder, printed at start; CLUSTER_KEEP=1 keeps it after Ctrl-C.`);
  process.exit(0);
}

const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 8) {
  console.error(`--instances must be a whole number from 1 to 8 (got ${values.instances}).`);
  process.exit(2);
}
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
  console.error(`--port must be a port number (got ${values.port}).`);
  process.exit(2);
}

const cluster = await startCluster({
  instances,
  port,
  postgres: values['private-postgres'] ? 'private' : 'shared',
  databaseUrl: process.env.DATABASE_URL,
  sampleData: !values['no-sample'],
  production: true,
});
console.log(`Sitelog cluster: ${cluster.url}  (through nginx)`);
for (const instance of cluster.instances)
  console.log(`  instance ${instance.name}: ${instance.url}  (pid ${instance.pid})`);
console.log(`  database: ${cluster.databaseUrl}`);
console.log(`  bucket:   ${cluster.s3.endpoint}/${cluster.s3.bucket}`);
console.log(`  logs:     ${cluster.dir}`);
const sample = await fetch(`${cluster.instances[0]!.url}/api/auth/hints`).then(
  (res) => res.json() as Promise<{ sample?: { email: string; password: string } }>,
);
if (sample.sample) console.log(`  sign in:  ${sample.sample.email} / ${sample.sample.password}`);
console.log('Ctrl-C stops everything.');

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  console.log('stopping the cluster…');
  cluster.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
