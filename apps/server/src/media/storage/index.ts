import type { Config } from '../../config.js';
import { createLocalStorage } from './local-storage.js';
import { createS3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

export type {
  PresignedGetOptions,
  Storage,
  StoredObjectInfo,
  StoredObjectStream,
} from './storage.js';
export { StorageError, type StorageFailureReason } from './storage-error.js';
export { createLocalStorage } from './local-storage.js';
export { createS3Storage } from './s3-storage.js';

/** The storage driver the configuration names: local disk (default) or an S3 bucket. */
export function createStorage(config: Pick<Config, 'storage'>): Storage {
  return config.storage.kind === 's3'
    ? createS3Storage(config.storage)
    : createLocalStorage(config.storage.dir);
}
