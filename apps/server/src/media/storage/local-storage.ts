import { randomBytes } from 'node:crypto';
import { chmodSync, constants, mkdirSync } from 'node:fs';
import {
  access,
  copyFile,
  mkdir,
  open,
  opendir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
} from 'node:fs/promises';
import path from 'node:path';
import { contentTypeForKey } from '../media-types.js';
import { StorageError, throwDiskError } from './storage-error.js';
import { assertValidKey, type Storage, type StoredObjectInfo } from './storage.js';

const isErrno = (err: unknown, code: string) =>
  typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;

/**
 * Media on local disk under `dir` (DATA_DIR/media by default). Writes go to a hidden temp file
 * next to the target, are fsynced, then renamed over it (atomic on POSIX). Content types come
 * from the key's extension, which the server chose from the sniffed type.
 */
export function createLocalStorage(dir: string): Storage {
  const root = path.resolve(dir);
  // Photos are the customer's: the media folder and everything in it are the server's alone.
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // An older install's folder (0755) too: a private root hides everything under it.
  try {
    chmodSync(root, 0o700);
  } catch (err) {
    // A folder the operator made for another account keeps the mode they chose.
    if (!isErrno(err, 'EPERM')) throw err;
  }

  const pathFor = (key: string) => {
    assertValidKey(key);
    const full = path.resolve(root, ...key.split('/'));
    // isValidKey already rules out '..'; this is the belt to its braces.
    if (!full.startsWith(root + path.sep)) throw new Error(`Key escapes the storage root: ${key}`);
    return full;
  };

  async function writeTemp(target: string, source: Buffer | { filePath: string }): Promise<string> {
    const temp = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
    );
    try {
      if (Buffer.isBuffer(source)) {
        const handle = await open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(source);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await copyFile(source.filePath, temp);
        const handle = await open(temp, 'r+');
        try {
          // copyFile keeps the source's mode, which is not ours to trust.
          await handle.chmod(0o600);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      return temp;
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async function* walk(directory: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await opendir(directory);
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return;
      throw err;
    }
    for await (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) yield* walk(full);
      else if (entry.isFile()) yield full;
    }
  }

  return {
    kind: 'local',

    async put(key, source, _contentType) {
      const target = pathFor(key);
      // A concurrent delete may remove the (then empty) folder between mkdir and the write.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          const temp = await writeTemp(target, source);
          try {
            await rename(temp, target);
          } catch (err) {
            await rm(temp, { force: true });
            throw err;
          }
          return;
        } catch (err) {
          // A full disk is a reason the uploads module answers (507), not a crash.
          if (!isErrno(err, 'ENOENT') || attempt >= 3) throwDiskError(err);
        }
      }
    },

    async get(key) {
      try {
        return await readFile(pathFor(key));
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return null;
        throw err;
      }
    },

    async stream(key) {
      const file = pathFor(key);
      let handle;
      try {
        handle = await open(file, 'r');
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return null;
        throw err;
      }
      // Opened first, then sized from the same descriptor: a concurrent replace cannot mismatch.
      let size: number;
      try {
        ({ size } = await handle.stat());
      } catch (err) {
        await handle.close();
        throw err;
      }
      return { body: handle.createReadStream(), size, contentType: contentTypeForKey(key) };
    },

    async stat(key) {
      try {
        return { size: (await stat(pathFor(key))).size };
      } catch (err) {
        if (isErrno(err, 'ENOENT')) return null;
        throw err;
      }
    },

    async delete(key) {
      const file = pathFor(key);
      await rm(file, { force: true });
      // Drop the upload's folder once it is empty; the fan-out folders above it stay.
      const folder = path.dirname(file);
      if (folder !== root) {
        await rmdir(folder).catch(() => undefined);
      }
    },

    async *list(prefix): AsyncGenerator<StoredObjectInfo> {
      const slash = prefix.lastIndexOf('/');
      const base = slash === -1 ? root : path.join(root, ...prefix.slice(0, slash).split('/'));
      const resolved = path.resolve(base);
      if (resolved !== root && !resolved.startsWith(root + path.sep)) return;
      for await (const file of walk(base)) {
        const key = path.relative(root, file).split(path.sep).join('/');
        if (!key.startsWith(prefix)) continue;
        let info;
        try {
          info = await stat(file);
        } catch (err) {
          if (isErrno(err, 'ENOENT')) continue;
          throw err;
        }
        yield { key, size: info.size, lastModified: info.mtime };
      }
    },

    async presignedGetUrl() {
      return null;
    },

    async check() {
      // The folder is there and this account may write in it (a removed or read-only mount).
      try {
        await access(root, constants.W_OK);
      } catch (err) {
        throw new StorageError('unavailable', 'the media folder is not writable', { cause: err });
      }
    },

    async close() {},
  };
}
