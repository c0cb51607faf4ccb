import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  /** Env for `createTestContext`: STORAGE=s3 and S3_* pointing at this server's bucket. */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  close: () => Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 at a random port, with one empty bucket, its
 * files in a fresh temp folder. Tests never use the network beyond this loopback server.
 */
export async function startS3Server(bucket = 'sitelog-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'sitelog-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
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
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
