// The upload queue's storage on the device: IndexedDB (through `idb`), so a photo chosen on site
// survives a reload, a closed tab and a phone without signal. The page and the service worker
// (Background Sync) both read it; nothing here touches the DOM.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export const QUEUE_DB_NAME = 'sitelog-upload-queue';
const VERSION = 1;

/**
 * - `waiting`: on the device, to be sent (again, after `nextAttemptAt` when a try failed);
 * - `sending`: a sender has it;
 * - `refused`: the server said no for a reason that sending again cannot change (not an image,
 *   too large, the project is gone); it stays until the user retries or discards it;
 * - `sent`: the server acknowledged it; the file is gone from the device and only the upload's
 *   id is kept, for the visit's editor, until the visit is over.
 */
export type QueuedStatus = 'waiting' | 'sending' | 'refused' | 'sent';

export interface QueuedPhoto {
  /** The idempotency key sent as `createUploadDto.clientId`: one upload per photo, whatever happens. */
  clientId: string;
  userId: number;
  projectId: number;
  /** For display while offline; the server names the photo after the project it knows. */
  projectName: string;
  /** The uploader visit the photo was taken in: the batch editor lists a visit's photos. */
  visitId: string;
  /** The photo itself; null once sent. */
  file: Blob | null;
  fileName: string;
  fileType: string;
  size: number;
  /** When the file was last modified: for a fresh shot, when it was taken. */
  takenAt: number;
  name: string;
  description: string;
  /**
   * Its tags, normalised (`normalizeTag`), sent with it and with a later text save. Records
   * stored before tags existed have none.
   */
  tags?: string[];
  addedAt: number;
  status: QueuedStatus;
  attempts: number;
  /** No try before this instant (backoff after a failed try). */
  nextAttemptAt: number;
  /** The last failure, for the queue's list: the server's message or "could not reach". */
  error: string | null;
  uploadId: number | null;
  sentAt: number | null;
  /** Name, description or tags changed after it was sent: to be saved to the upload (PATCH). */
  textDirty: boolean;
  /**
   * The tags were changed here after the create request took them, so the save sends them. A
   * save without it leaves the upload's tags as the server has them (changed elsewhere since,
   * or a record stored before tags existed, which has none to send).
   */
  tagsDirty?: boolean;
}

/** The signed-in session, for the service worker's Background Sync (it cannot read localStorage). */
export interface QueueSession {
  key: 'session';
  userId: number;
  token: string;
}

/** Projects photographed on this device, so the uploader's chooser works without signal. */
export interface RecentProject {
  /** `${userId}:${projectId}`. */
  key: string;
  userId: number;
  projectId: number;
  name: string;
  location: string;
  usedAt: number;
}

/** A photo's record without its file: its state changes often, and its file never. */
type StoredPhoto = Omit<QueuedPhoto, 'file'>;

interface QueueSchema extends DBSchema {
  photos: {
    key: string;
    value: StoredPhoto;
    indexes: { byUser: number };
  };
  /**
   * The files, by `clientId`, apart from the records: a state change rewrites a small record,
   * never the photo (in Chromium, putting a record that holds a Blob writes the Blob again).
   */
  files: { key: string; value: Blob };
  session: { key: 'session'; value: QueueSession };
  recentProjects: { key: string; value: RecentProject; indexes: { byUser: number } };
}

export type QueueDb = IDBPDatabase<QueueSchema>;

let opening: Promise<QueueDb> | null = null;

/** The queue's database, opened once per page (or worker). */
export function openQueueDb(): Promise<QueueDb> {
  opening ??= openDB<QueueSchema>(QUEUE_DB_NAME, VERSION, {
    upgrade(db) {
      const photos = db.createObjectStore('photos', { keyPath: 'clientId' });
      photos.createIndex('byUser', 'userId');
      db.createObjectStore('files');
      db.createObjectStore('session', { keyPath: 'key' });
      const recent = db.createObjectStore('recentProjects', { keyPath: 'key' });
      recent.createIndex('byUser', 'userId');
    },
    // Another tab or the service worker holds an older version open: let it go first.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** Closes the database (tests delete it between cases). */
export async function closeQueueDb(): Promise<void> {
  const db = opening;
  opening = null;
  if (db) (await db).close();
}

const recordOf = ({ file: _file, ...record }: QueuedPhoto): StoredPhoto => record;

/** Stores a photo, its file included, in one transaction. */
export async function putPhoto(photo: QueuedPhoto): Promise<void> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files'], 'readwrite');
  await tx.objectStore('photos').put(recordOf(photo));
  if (photo.file) await tx.objectStore('files').put(photo.file, photo.clientId);
  await tx.done;
}

export async function getPhoto(clientId: string): Promise<QueuedPhoto | undefined> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files']);
  const [record, file] = await Promise.all([
    tx.objectStore('photos').get(clientId),
    tx.objectStore('files').get(clientId),
  ]);
  await tx.done;
  return record ? { ...record, file: file ?? null } : undefined;
}

export async function deletePhoto(clientId: string): Promise<void> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files'], 'readwrite');
  await Promise.all([
    tx.objectStore('photos').delete(clientId),
    tx.objectStore('files').delete(clientId),
  ]);
  await tx.done;
}

/** Every queued photo of `userId`, oldest first, with its file while it has one. */
export async function userPhotos(userId: number): Promise<QueuedPhoto[]> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files']);
  const records = await tx.objectStore('photos').index('byUser').getAll(userId);
  const photos = await Promise.all(
    records.map(async (record) => ({
      ...record,
      file:
        record.status === 'sent'
          ? null
          : ((await tx.objectStore('files').get(record.clientId)) ?? null),
    })),
  );
  await tx.done;
  return photos.sort((a, b) => a.addedAt - b.addedAt || a.clientId.localeCompare(b.clientId));
}

/**
 * Applies `change` to the stored photo in one transaction and returns the result, or null when
 * the photo is gone (discarded, or sent and cleared by another tab). Only the record is written;
 * the file is deleted when `change` drops it.
 */
export async function updatePhoto(
  clientId: string,
  change: (photo: QueuedPhoto) => QueuedPhoto,
): Promise<QueuedPhoto | null> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files'], 'readwrite');
  const [record, file] = await Promise.all([
    tx.objectStore('photos').get(clientId),
    tx.objectStore('files').get(clientId),
  ]);
  if (!record) {
    await tx.done;
    return null;
  }
  const current: QueuedPhoto = { ...record, file: file ?? null };
  const next = change(current);
  await tx.objectStore('photos').put(recordOf(next));
  if (next.file === null && current.file !== null) await tx.objectStore('files').delete(clientId);
  await tx.done;
  return next;
}

/** Deletes every photo, the stored session and the recent projects of `userId` (logout). */
export async function clearUser(userId: number): Promise<void> {
  const db = await openQueueDb();
  const tx = db.transaction(['photos', 'files', 'session', 'recentProjects'], 'readwrite');
  const photos = tx.objectStore('photos');
  for (const key of await photos.index('byUser').getAllKeys(userId)) {
    await photos.delete(key);
    await tx.objectStore('files').delete(key);
  }
  const recent = tx.objectStore('recentProjects');
  for (const key of await recent.index('byUser').getAllKeys(userId)) await recent.delete(key);
  const session = await tx.objectStore('session').get('session');
  if (session?.userId === userId) await tx.objectStore('session').delete('session');
  await tx.done;
}

export async function saveQueueSession(session: Omit<QueueSession, 'key'>): Promise<void> {
  await (await openQueueDb()).put('session', { key: 'session', ...session });
}

export async function readQueueSession(): Promise<QueueSession | undefined> {
  return (await openQueueDb()).get('session', 'session');
}

export async function forgetQueueSession(): Promise<void> {
  await (await openQueueDb()).delete('session', 'session');
}

const RECENT_PROJECTS_KEPT = 200;

/** Remembers a project the user photographs for, keeping the newest RECENT_PROJECTS_KEPT. */
export async function rememberProject(
  project: Omit<RecentProject, 'key' | 'usedAt'>,
  now = Date.now(),
): Promise<void> {
  const db = await openQueueDb();
  const tx = db.transaction('recentProjects', 'readwrite');
  await tx.store.put({ ...project, key: `${project.userId}:${project.projectId}`, usedAt: now });
  const all = await tx.store.index('byUser').getAll(project.userId);
  all.sort((a, b) => b.usedAt - a.usedAt);
  for (const old of all.slice(RECENT_PROJECTS_KEPT)) await tx.store.delete(old.key);
  await tx.done;
}

/** The user's recent projects, most recently used first. */
export async function recentProjects(userId: number): Promise<RecentProject[]> {
  const all = await (await openQueueDb()).getAllFromIndex('recentProjects', 'byUser', userId);
  return all.sort((a, b) => b.usedAt - a.usedAt);
}
