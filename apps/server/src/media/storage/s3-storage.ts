import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput, S3ClientConfig } from '@aws-sdk/client-s3';
import type { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../../config.js';
import { loadOnce } from '../../load-once.js';
import { attachmentDisposition, contentTypeForKey } from '../media-types.js';
import { s3FailureReason, StorageError } from './storage-error.js';
import { assertValidKey, type Storage, type StoredObjectInfo } from './storage.js';

export type S3StorageConfig = Extract<Config['storage'], { kind: 's3' }>;

/** S3 caps presigned URLs at seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const isNotFound = (err: unknown) => {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * How long a bucket may keep us waiting. The connection must open within `connectionTimeoutMs`,
 * and a request fails after `socketTimeoutMs` without a byte moving either way (an idle bound,
 * not a total: a large original on a slow link keeps going). The SDK retries a failed request
 * `maxAttempts - 1` times with a short backoff, so a hung bucket fails an upload in about
 * maxAttempts × socketTimeoutMs rather than never.
 */
export interface S3Timeouts {
  connectionTimeoutMs: number;
  socketTimeoutMs: number;
  maxAttempts: number;
}

const DEFAULT_TIMEOUTS: S3Timeouts = {
  connectionTimeoutMs: 5_000,
  socketTimeoutMs: 20_000,
  maxAttempts: 3,
};

/**
 * The health check's HeadBucket: one attempt, answered within this long or counted as down. A
 * balancer polls every few seconds; a check that waited on retries would answer too late.
 */
const CHECK_TIMEOUT_MS = 2_500;

/**
 * The connection under a request was closed or reset (a pooled keep-alive connection the bucket
 * had just closed, a bucket restarting): the request may go again on a new connection.
 */
function isDroppedConnection(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' || code === 'EPIPE' || message === 'socket hang up';
}

/** The AWS SDK's S3 client and presigner. */
type Sdk = typeof S3Sdk & { getSignedUrl: typeof getSignedUrl };

/**
 * The SDK, imported when the first bucket storage is used: its modules cost ~0.2 s to load, which
 * a server on local disk (the default, and most test files) need not pay at start.
 */
const loadSdk = loadOnce(async (): Promise<Sdk> => {
  const [s3, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...s3, getSignedUrl: presigner.getSignedUrl };
});

/** An outage (or a full backend) becomes a StorageError the uploads module can answer. */
function throwS3Error(err: unknown): never {
  const reason = s3FailureReason(err);
  if (!reason) throw err;
  throw new StorageError(
    reason,
    reason === 'full' ? 'the bucket has no space left' : 'the bucket cannot be reached',
    { cause: err },
  );
}

/**
 * Media in an S3-compatible bucket (AWS, MinIO, R2, Ceph…). A PUT is atomic by nature. The
 * browser fetches objects through presigned GET URLs (`MEDIA_DELIVERY=bucket`), which also pin the
 * response's content type (and, for originals, `Content-Disposition: attachment`), or through the
 * app's `/media` route, which streams them from here (`MEDIA_DELIVERY=app`).
 */
export function createS3Storage(
  config: S3StorageConfig,
  timeouts: S3Timeouts = DEFAULT_TIMEOUTS,
): Storage {
  const options: S3ClientConfig = {
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
        }
      : {}),
    // The SDK's default trailing checksums (aws-chunked uploads) are not understood by many
    // S3-compatible servers; checksums only where the API requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  /** The SDK and the two clients, made on first use (tried again on the next if it failed). */
  const connect = loadOnce(async () => {
    const sdk = await loadSdk();
    return {
      sdk,
      client: new sdk.S3Client({
        ...options,
        maxAttempts: timeouts.maxAttempts,
        requestHandler: {
          connectionTimeout: timeouts.connectionTimeoutMs,
          socketTimeout: timeouts.socketTimeoutMs,
        },
      }),
      // Its own client, without retries and with short timeouts (the SDK sets those per client).
      checkClient: new sdk.S3Client({
        ...options,
        maxAttempts: 1,
        requestHandler: { connectionTimeout: CHECK_TIMEOUT_MS, socketTimeout: CHECK_TIMEOUT_MS },
      }),
    };
  });
  const Bucket = config.bucket;
  /** A request whose outage surfaces as a StorageError. */
  const checked = <T>(request: Promise<T>): Promise<T> => request.catch(throwS3Error);

  async function getObject(key: string): Promise<GetObjectCommandOutput | null> {
    assertValidKey(key);
    const { sdk, client } = await connect();
    try {
      return await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throwS3Error(err);
    }
  }

  return {
    kind: 's3',

    async put(key, source, contentType) {
      assertValidKey(key);
      const { sdk, client } = await connect();
      if (Buffer.isBuffer(source)) {
        await checked(
          client.send(
            new sdk.PutObjectCommand({ Bucket, Key: key, Body: source, ContentType: contentType }),
          ),
        );
        return;
      }
      const { size } = await stat(source.filePath);
      // The SDK retries a request whose body it can send again, never one streaming a file: a
      // pooled connection the bucket closed while it sat idle (its keep-alive timeout firing as
      // the request goes out) would fail the upload with the bucket up. A PUT may be repeated, so
      // it is, from a new stream, as often as the SDK would.
      for (let attempt = 1; ; attempt++) {
        const body = createReadStream(source.filePath);
        try {
          await client.send(
            new sdk.PutObjectCommand({
              Bucket,
              Key: key,
              Body: body,
              ContentLength: size,
              ContentType: contentType,
            }),
          );
          return;
        } catch (err) {
          if (attempt < timeouts.maxAttempts && isDroppedConnection(err)) continue;
          throwS3Error(err);
        } finally {
          body.destroy();
        }
      }
    },

    async get(key) {
      const object = await getObject(key);
      if (!object?.Body) return null;
      return Buffer.from(await checked(object.Body.transformToByteArray()));
    },

    async stream(key) {
      const object = await getObject(key);
      if (!object?.Body) return null;
      const body = object.Body as unknown;
      if (!(body instanceof Readable))
        throw new Error('S3 returned a body that is not a Node stream');
      return {
        body,
        size: object.ContentLength ?? 0,
        // As on local disk and in presigned URLs: the key's type, not whatever metadata a copy
        // into the bucket (a migration, a sync tool) left on the object.
        contentType: contentTypeForKey(key),
      };
    },

    async stat(key) {
      assertValidKey(key);
      const { sdk, client } = await connect();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0 };
      } catch (err) {
        if (isNotFound(err)) return null;
        throwS3Error(err);
      }
    },

    async delete(key) {
      assertValidKey(key);
      const { sdk, client } = await connect();
      await checked(client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key })));
    },

    async *list(prefix): AsyncGenerator<StoredObjectInfo> {
      const { sdk, client } = await connect();
      let ContinuationToken: string | undefined;
      do {
        const page = await checked(
          client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken })),
        );
        for (const item of page.Contents ?? []) {
          if (!item.Key) continue;
          yield {
            key: item.Key,
            size: item.Size ?? 0,
            lastModified: item.LastModified ?? new Date(0),
          };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    async presignedGetUrl(key, options) {
      assertValidKey(key);
      const { sdk, client } = await connect();
      const command = new sdk.GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ...(options.cacheControl ? { ResponseCacheControl: options.cacheControl } : {}),
        ...(options.downloadName
          ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) }
          : {}),
      });
      return sdk.getSignedUrl(client, command, {
        signingDate: options.signingDate,
        expiresIn: Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(options.expiresInSeconds))),
      });
    },

    async check() {
      try {
        const { sdk, checkClient } = await connect();
        await checkClient.send(new sdk.HeadBucketCommand({ Bucket }), {
          abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
      } catch (err) {
        // Down, slow, or refusing us (a missing bucket, wrong keys): either way not usable.
        throw new StorageError('unavailable', 'the bucket cannot be reached', { cause: err });
      }
    },

    async close() {
      // Nothing to close when no request was ever made (or the SDK could not load).
      const made = await connect.settled();
      made?.client.destroy();
      made?.checkClient.destroy();
    },
  };
}
