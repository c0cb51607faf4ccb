import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  /** Env for `createTestContext`: STORAGE=s3 and S3_* pointing at this server's bucket. */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  /** The running server's HTTP server (tests of outages hook its requests). */
  httpServer: () => Server;
  /** Stops the server as an outage would: open connections are cut, new ones refused. */
  stop: () => Promise<void>;
  /** Starts it again on the same port and folder, with the objects it held. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 at a random port, with one empty bucket, its
 * files in a fresh temp folder. Tests never use the network beyond this loopback server.
 */
export async function startS3Server(bucket = 'sitelog-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'sitelog-s3-'));
  const run = async (port: number) => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
    return { server, address: await server.run() };
  };
  const first = await run(0);
  let server = first.server;
  let running = true;
  const { port } = first.address;
  const stop = async () => {
    if (!running) return;
    running = false;
    server.httpServer?.closeAllConnections();
    await server.close();
  };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's fixed development credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'on',
    },
    httpServer: () => {
      if (!running || !server.httpServer) throw new Error('the S3 server is stopped');
      return server.httpServer;
    },
    stop,
    start: async () => {
      if (running) return;
      ({ server } = await run(port));
      running = true;
    },
    close: async () => {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
