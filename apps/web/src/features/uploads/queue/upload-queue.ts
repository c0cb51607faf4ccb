// The field uploader's queue: every chosen photo is written to the device first, then sent in
// the background, two at a time, with its idempotency key, until the server acknowledges it.
// It outlives the page that added the photo (a module singleton), resumes after a reload, and
// waits for signal. React reads it through the hooks of use-upload-queue.ts.
import type { Upload } from '@sitelog/shared';
import {
  deletePhoto,
  putPhoto,
  rememberProject,
  saveQueueSession,
  updatePhoto,
  userPhotos,
  type QueuedPhoto,
} from './queue-db';
import { backoffMs, type SendOutcome } from './send-photo';

/**
 * Photos in flight at once: what the uploads bench found to double throughput, and no more.
 * Text saves of sent photos have as many slots of their own.
 */
export const IN_FLIGHT = 2;
/** A sent photo's record (no file) is kept this long for its visit's editor. */
const SENT_KEPT_MS = 24 * 60 * 60 * 1000;
/** Another tab or the service worker is sending it: look again after this. */
const BUSY_RETRY_MS = 3_000;
/** The stored session was refused: try again after this (the user may sign in meanwhile). */
const UNAUTHORIZED_RETRY_MS = 60_000;

export interface SendOptions {
  onProgress: (fraction: number | null) => void;
  signal: AbortSignal;
  /** The session the queue was started with: a photo goes up as its own user, never another. */
  token: string;
}

export interface QueueDeps {
  send: (photo: QueuedPhoto, file: Blob, options: SendOptions) => Promise<SendOutcome>;
  /** PATCH of the text typed after the photo had been sent; the same outcomes. */
  saveText: (photo: QueuedPhoto, token: string) => Promise<SendOutcome>;
  isOnline: () => boolean;
  now: () => number;
  random: () => number;
  newId: () => string;
  /** Runs `task` unless another tab or the worker holds the photo's lock (then: 'busy'). */
  withLock: <T>(clientId: string, task: () => Promise<T>) => Promise<T | 'busy'>;
  /** After a photo was added: ask the service worker to send the queue even if the app closes. */
  requestBackgroundSync: () => void;
  /** Tells other tabs something changed (they read the queue again). */
  broadcast: () => void;
}

export interface QueueSnapshot {
  userId: number | null;
  /** False until the user's queue has been read from the device. */
  loaded: boolean;
  photos: readonly QueuedPhoto[];
  /** Upload progress (0..1, null when unknown) of the photos being sent by this page. */
  progress: ReadonlyMap<string, number | null>;
  online: boolean;
}

export interface AddTarget {
  projectId: number;
  projectName: string;
  projectLocation?: string;
  visitId: string;
}

export type UploadedListener = (upload: Upload, photo: QueuedPhoto) => void;

/** What is typed for a photo: name, description and tags (normalised; none when left out). */
export interface PhotoText {
  name: string;
  description: string;
  tags?: readonly string[];
}

const tagsOf = (photo: Pick<QueuedPhoto, 'tags'>): readonly string[] => photo.tags ?? [];
const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);
/** Whether the photo's text differs from `text` (tags left out of `text` are not compared). */
const textChanged = (photo: QueuedPhoto, text: PhotoText) =>
  photo.name !== text.name ||
  photo.description !== text.description ||
  (text.tags !== undefined && !sameTags(tagsOf(photo), text.tags));

/** Photos still on the device: not yet acknowledged by the server. */
export const isPending = (photo: QueuedPhoto) => photo.status !== 'sent';

/** What would be lost if the device's queue were cleared: unsent photos and unsaved text. */
export const isUnsaved = (photo: QueuedPhoto) => isPending(photo) || photo.textDirty;

export interface AddResult {
  /** Stored on the device and queued. */
  added: QueuedPhoto[];
  /** Not stored (the device is full…): nothing of them was queued. */
  failed: { file: File; error: unknown }[];
}

export class UploadQueue {
  private snapshot: QueueSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly uploadedListeners = new Set<UploadedListener>();
  private readonly inFlight = new Map<string, AbortController>();
  /** Of those, the text saves (PATCH of a sent photo): small, so they do not wait for photos. */
  private readonly textsInFlight = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;
  private token: string | null = null;
  /**
   * Photos whose try has ended and whose outcome is still being written: not picked again
   * before that, and the queue is not idle before they are done.
   */
  private readonly settling = new Set<string>();

  constructor(private readonly deps: QueueDeps) {
    this.snapshot = {
      userId: null,
      loaded: false,
      photos: [],
      progress: new Map(),
      online: deps.isOnline(),
    };
  }

  getSnapshot = (): QueueSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onUploaded(listener: UploadedListener): () => void {
    this.uploadedListeners.add(listener);
    return () => this.uploadedListeners.delete(listener);
  }

  private set(next: Partial<QueueSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of [...this.listeners]) listener();
  }

  private replace(photo: QueuedPhoto): void {
    const photos = this.snapshot.photos.some((p) => p.clientId === photo.clientId)
      ? this.snapshot.photos.map((p) => (p.clientId === photo.clientId ? photo : p))
      : [...this.snapshot.photos, photo];
    this.set({ photos });
  }

  private setProgress(clientId: string, fraction: number | null | undefined): void {
    // The browser reports progress every few kilobytes; the tiles show whole percents, and
    // re-rendering them for less would take the main thread from the queue and the camera.
    const shown = this.snapshot.progress.get(clientId);
    const percent = (value: number | null | undefined) =>
      typeof value === 'number' ? Math.floor(value * 100) : value;
    if (fraction !== undefined && shown !== undefined && percent(shown) === percent(fraction))
      return;
    const progress = new Map(this.snapshot.progress);
    if (fraction === undefined) progress.delete(clientId);
    else progress.set(clientId, fraction);
    this.set({ progress });
  }

  /**
   * Starts (or switches to) `userId`'s queue: reads it from the device and sends what waits.
   * The page also stores the session for the service worker (`storeSession`); the worker, which
   * only reads it, must not write it back (a logout meanwhile deletes it).
   */
  async start(
    userId: number,
    token: string,
    { storeSession = true }: { storeSession?: boolean } = {},
  ): Promise<void> {
    if (this.snapshot.userId !== userId) this.stop();
    const generation = this.generation;
    this.token = token;
    this.set({ userId });
    if (storeSession) await saveQueueSession({ userId, token });
    await this.reload(generation, { recover: true });
  }

  /** Stops sending (logout, expired session): photos stay on the device, waiting. */
  stop(): void {
    this.generation += 1;
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
    this.textsInFlight.clear();
    this.settling.clear();
    this.token = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.set({ userId: null, loaded: false, photos: [], progress: new Map() });
  }

  /** Reads the queue from the device again (another tab or the service worker changed it). */
  refresh(): Promise<void> {
    return this.reload(this.generation, { recover: false });
  }

  private async reload(generation: number, { recover }: { recover: boolean }): Promise<void> {
    const userId = this.snapshot.userId;
    if (userId === null) return;
    const now = this.deps.now();
    let photos = await userPhotos(userId);
    if (generation !== this.generation) return;
    const kept: QueuedPhoto[] = [];
    for (const photo of photos) {
      if (photo.status === 'sent' && !photo.textDirty && now - (photo.sentAt ?? 0) > SENT_KEPT_MS) {
        await deletePhoto(photo.clientId);
        continue;
      }
      // Left `sending` by a page that was closed mid-send: whoever holds its lock sends it; the
      // key makes a second send harmless.
      if (recover && photo.status === 'sending' && !this.inFlight.has(photo.clientId)) {
        const waiting = await updatePhoto(photo.clientId, (p) =>
          p.status === 'sending' ? { ...p, status: 'waiting' } : p,
        );
        if (waiting) kept.push(waiting);
        continue;
      }
      kept.push(photo);
    }
    photos = kept;
    if (generation !== this.generation) return;
    this.set({ photos, loaded: true });
    this.pump();
  }

  /** Connection state changed (the `online`/`offline` events): waiting photos go at once. */
  setOnline(online: boolean): void {
    this.set({ online });
    if (online) this.sendNow();
  }

  /**
   * Writes each file to the device, then queues it: each may be sent as soon as it is stored,
   * never before. A file that cannot be stored (the device is full) is reported and the others
   * go on, so adding the failed ones again never sends a stored one twice.
   */
  async add(files: readonly File[], target: AddTarget, text: PhotoText): Promise<AddResult> {
    const userId = this.snapshot.userId;
    if (userId === null) throw new Error('Sign in to add photos.');
    const generation = this.generation;
    const result: AddResult = { added: [], failed: [] };
    const { added, failed } = result;
    for (const file of files) {
      if (generation !== this.generation) {
        failed.push({ file, error: new Error('You were signed out.') });
        continue;
      }
      const now = this.deps.now();
      const photo: QueuedPhoto = {
        clientId: this.deps.newId(),
        userId,
        projectId: target.projectId,
        projectName: target.projectName,
        visitId: target.visitId,
        file,
        fileName: file.name || 'photo.jpg',
        fileType: file.type,
        size: file.size,
        takenAt: file.lastModified || now,
        name: text.name,
        description: text.description,
        tags: [...(text.tags ?? [])],
        addedAt: now,
        status: 'waiting',
        attempts: 0,
        nextAttemptAt: now,
        error: null,
        uploadId: null,
        sentAt: null,
        textDirty: false,
      };
      try {
        await putPhoto(photo);
      } catch (error) {
        failed.push({ file, error });
        continue;
      }
      added.push(photo);
      if (generation !== this.generation) continue;
      this.replace(photo);
      // Stored: it may leave now, while the next one is written.
      this.pump();
    }
    if (added.length > 0)
      void rememberProject({
        userId,
        projectId: target.projectId,
        name: target.projectName,
        location: target.projectLocation ?? '',
      }).catch(() => undefined);
    if (added.length > 0) {
      this.deps.broadcast();
      this.deps.requestBackgroundSync();
      this.pump();
    }
    return result;
  }

  /**
   * Changes a photo's name, description and tags (kept when `text` leaves them out). Before it is
   * sent they go with it; after, they are saved to the upload (PATCH), queued the same way, so
   * text typed offline is not lost either.
   */
  async setText(clientId: string, text: PhotoText): Promise<void> {
    const next = await updatePhoto(clientId, (photo) =>
      !textChanged(photo, text)
        ? photo
        : {
            ...photo,
            name: text.name,
            description: text.description,
            tags: [...(text.tags ?? tagsOf(photo))],
            textDirty: photo.status !== 'waiting' && photo.status !== 'refused',
            // Once the create request has them, changed tags are saved by the later update.
            tagsDirty:
              photo.status !== 'waiting' &&
              photo.status !== 'refused' &&
              (photo.tagsDirty === true ||
                (text.tags !== undefined && !sameTags(tagsOf(photo), text.tags))),
          },
    );
    if (!next) return;
    this.replace(next);
    this.deps.broadcast();
    this.pump();
  }

  /** A refused or waiting photo: try it now, from a fresh start. */
  async retry(clientId: string): Promise<void> {
    const next = await updatePhoto(clientId, (photo) =>
      photo.status === 'refused' || photo.status === 'waiting'
        ? { ...photo, status: 'waiting', attempts: 0, nextAttemptAt: 0, error: null }
        : photo,
    );
    if (next) this.replace(next);
    this.pump();
  }

  /** Removes a photo from the device for good (the UI asks first). */
  async discard(clientId: string): Promise<void> {
    this.inFlight.get(clientId)?.abort();
    await deletePhoto(clientId);
    this.set({ photos: this.snapshot.photos.filter((p) => p.clientId !== clientId) });
    this.setProgress(clientId, undefined);
    this.deps.broadcast();
  }

  /** Forgets the sent photos of a visit whose editor was closed (DONE). */
  async closeVisit(visitId: string): Promise<void> {
    const done = this.snapshot.photos.filter(
      (p) => p.visitId === visitId && p.status === 'sent' && !p.textDirty,
    );
    for (const photo of done) await deletePhoto(photo.clientId);
    const gone = new Set(done.map((p) => p.clientId));
    this.set({ photos: this.snapshot.photos.filter((p) => !gone.has(p.clientId)) });
  }

  /** Every waiting photo may go now (the connection came back, or the user asked). */
  sendNow(): void {
    const now = this.deps.now();
    const photos = this.snapshot.photos.map((p) =>
      p.status === 'waiting' && p.nextAttemptAt > now ? { ...p, nextAttemptAt: now } : p,
    );
    this.set({ photos });
    this.pump();
  }

  /**
   * Resolves once nothing is being sent and nothing is due now (offline, everything sent, or
   * only photos in backoff or refused left): the service worker's sync waits for this.
   */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.snapshot.loaded || this.inFlight.size > 0 || this.settling.size > 0) return;
        const now = this.deps.now();
        if (this.snapshot.online && this.snapshot.photos.some((p) => this.due(p, now))) return;
        unsubscribe();
        resolve();
      };
      const unsubscribe = this.subscribe(check);
      check();
    });
  }

  private due(photo: QueuedPhoto, now: number): boolean {
    if (this.inFlight.has(photo.clientId) || this.settling.has(photo.clientId)) return false;
    if (photo.nextAttemptAt > now) return false;
    // `sending` here means another sender (a tab, the worker) had it: if that sender is gone
    // (closed mid-send), its lock is free and this queue takes the photo over.
    return (
      photo.status === 'waiting' ||
      photo.status === 'sending' ||
      (photo.status === 'sent' && photo.textDirty)
    );
  }

  private pump(): void {
    if (this.snapshot.userId === null || !this.snapshot.loaded) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.snapshot.online) return;
    const now = this.deps.now();
    for (const photo of this.snapshot.photos) {
      if (!this.due(photo, now)) continue;
      const text = photo.status === 'sent';
      const busy = text ? this.textsInFlight.size : this.inFlight.size - this.textsInFlight.size;
      if (busy < IN_FLIGHT) void this.sendOne(photo, this.generation);
    }
    // The next photo whose backoff ends wakes the queue up.
    const later = this.snapshot.photos
      .filter(
        (p) =>
          (p.status === 'waiting' || p.status === 'sending' || p.textDirty) &&
          !this.inFlight.has(p.clientId),
      )
      .map((p) => p.nextAttemptAt)
      .filter((at) => at > now);
    if (later.length > 0) this.timer = setTimeout(() => this.pump(), Math.min(...later) - now);
  }

  private async sendOne(photo: QueuedPhoto, generation: number): Promise<void> {
    const controller = new AbortController();
    const { clientId } = photo;
    const token = this.token;
    this.inFlight.set(clientId, controller);
    const textOnly = photo.status === 'sent';
    if (textOnly) this.textsInFlight.add(clientId);
    let outcome: SendOutcome | 'busy' | 'gone';
    let sentText: PhotoText = {
      name: photo.name,
      description: photo.description,
      tags: tagsOf(photo),
    };
    /** Whether a request left: only then is the photo `sending`, and its slot worth refilling. */
    let tried = false;
    try {
      outcome = await this.deps.withLock(clientId, async (): Promise<SendOutcome | 'gone'> => {
        // Read again under the lock: another tab may have sent or discarded it meanwhile. A
        // photo left `sending` by a closed page or a stopped worker is taken over: nobody else
        // holds its lock.
        const current = await updatePhoto(clientId, (p) =>
          p.status === 'waiting' ? { ...p, status: 'sending' } : p,
        );
        if (!current) return 'gone';
        const sendable = textOnly
          ? current.status === 'sent' && current.textDirty
          : current.status === 'sending';
        if (!sendable) return 'gone';
        if (generation !== this.generation || token === null) return { kind: 'aborted' };
        sentText = {
          name: current.name,
          description: current.description,
          tags: tagsOf(current),
        };
        this.replace(current);
        tried = true;
        if (textOnly) return this.deps.saveText(current, token);
        // Cannot happen short of the browser losing the file: say so rather than retry for ever.
        if (!current.file)
          return { kind: 'refused', message: 'The photo’s file is no longer on this device.' };
        this.setProgress(clientId, 0);
        return this.deps.send(current, current.file, {
          signal: controller.signal,
          token,
          onProgress: (fraction) => this.setProgress(clientId, fraction),
        });
      });
    } catch (error) {
      outcome = { kind: 'retry', message: error instanceof Error ? error.message : String(error) };
    }
    this.settling.add(clientId);
    this.inFlight.delete(clientId);
    this.textsInFlight.delete(clientId);
    this.setProgress(clientId, undefined);
    try {
      // After a real try of a photo, the next one leaves at once and this one's outcome is
      // written meanwhile (it is `settling`, so not picked again).
      if (generation === this.generation && tried && !textOnly) this.pump();
      if (generation !== this.generation) {
        // Stopped meanwhile (logout or another user): leave it waiting on the device.
        await updatePhoto(clientId, (p) =>
          p.status === 'sending' ? { ...p, status: 'waiting' } : p,
        ).catch(() => null);
        return;
      }
      await this.settle(clientId, outcome, sentText, textOnly).catch(() => {
        // The outcome could not be written (storage error): the photo is looked at again
        // after a pause, as after a failed try.
        this.delay(clientId, BUSY_RETRY_MS);
      });
    } finally {
      this.settling.delete(clientId);
      // Listeners (whenIdle) learn that this try is over.
      this.set({});
    }
    this.deps.broadcast();
    this.pump();
  }

  /** Not before `ms` from now, in this page only (nothing is written). */
  private delay(clientId: string, ms: number): void {
    const photo = this.snapshot.photos.find((p) => p.clientId === clientId);
    if (photo) this.replace({ ...photo, nextAttemptAt: this.deps.now() + ms });
  }

  private async settle(
    clientId: string,
    outcome: SendOutcome | 'busy' | 'gone',
    sentText: PhotoText,
    textOnly: boolean,
  ): Promise<void> {
    const now = this.deps.now();
    if (outcome === 'gone') {
      await this.refresh();
      return;
    }
    if (outcome === 'busy') {
      // Another sender holds it; its outcome reaches this page through the device.
      this.delay(clientId, BUSY_RETRY_MS);
      return;
    }
    let uploaded: Upload | null = null;
    const next = await updatePhoto(clientId, (p): QueuedPhoto => {
      switch (outcome.kind) {
        case 'sent': {
          uploaded = outcome.upload;
          // Text typed while it was on its way is saved next (PATCH).
          const changed = textChanged(p, sentText);
          return {
            ...p,
            status: 'sent',
            file: null,
            uploadId: outcome.upload.id,
            sentAt: p.sentAt ?? now,
            name: changed ? p.name : outcome.upload.name,
            description: changed ? p.description : outcome.upload.description,
            tags: changed ? p.tags : (outcome.upload.tags ?? p.tags),
            textDirty: changed,
            // Tags changed since the request took them are still to be saved; the rest are
            // the server's now.
            tagsDirty: changed && !sameTags(tagsOf(p), sentText.tags ?? []),
            attempts: 0,
            nextAttemptAt: now,
            error: null,
          };
        }
        case 'refused':
          return textOnly
            ? { ...p, textDirty: false, tagsDirty: false, error: outcome.message }
            : { ...p, status: 'refused', error: outcome.message };
        case 'retry':
          return {
            ...p,
            status: textOnly ? p.status : 'waiting',
            attempts: p.attempts + 1,
            nextAttemptAt: now + backoffMs(p.attempts + 1, this.deps.random()),
            error: outcome.message,
          };
        case 'unauthorized':
          // The page's session ends with the 401 (and stops this queue); a sender without a
          // page (the service worker) waits before it tries again.
          return {
            ...p,
            status: textOnly ? p.status : 'waiting',
            nextAttemptAt: now + UNAUTHORIZED_RETRY_MS,
            error: 'Your session ended. Sign in again to send it.',
          };
        case 'aborted':
          return { ...p, status: textOnly ? p.status : 'waiting' };
      }
    });
    if (next) this.replace(next);
    if (uploaded && next) for (const listener of this.uploadedListeners) listener(uploaded, next);
  }
}
