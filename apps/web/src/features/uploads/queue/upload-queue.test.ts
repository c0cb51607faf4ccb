import { File as NodeFile } from 'node:buffer';
import type { Upload } from '@sitelog/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as QueueDbModule from './queue-db';
import { getPhoto, readQueueSession, userPhotos, type QueuedPhoto } from './queue-db';
import { backoffMs, buildUploadForm, textUpdateBody, type SendOutcome } from './send-photo';
import { UploadQueue, type QueueDeps, type SendOptions } from './upload-queue';

// IndexedDB for Node: a fresh, empty database per test. Files are Node's (structured-cloneable).
const photoFile = (name = 'shot.jpg', size = 1000) =>
  new NodeFile([new Uint8Array(size)], name, {
    type: 'image/jpeg',
    lastModified: 1_000,
  }) as unknown as File;

interface PendingSend {
  photo: QueuedPhoto;
  options: SendOptions;
  resolve: (outcome: SendOutcome) => void;
}

const uploadFor = (photo: QueuedPhoto, id: number): Upload =>
  ({
    id,
    name: photo.name || `Project · 14:32`,
    description: photo.description,
    project: { id: photo.projectId, name: 'Riverside' },
    creator: { id: photo.userId, firstname: 'A', lastname: 'B' },
  }) as unknown as Upload;

function harness({ online = true, busy = new Set<string>(), Queue = UploadQueue } = {}) {
  const sends: PendingSend[] = [];
  const texts: QueuedPhoto[] = [];
  let now = 10_000;
  let ids = 0;
  let isOnline = online;
  const storedAtSend: (QueuedPhoto | undefined)[] = [];
  /** The order of events: a photo being made (before it is stored), a send taking its lock. */
  const events: string[] = [];
  const deps: QueueDeps = {
    send: async (photo, _file, options) => {
      storedAtSend.push(await getPhoto(photo.clientId));
      return new Promise((resolve) => sends.push({ photo, options, resolve }));
    },
    saveText: (photo) => {
      texts.push(photo);
      return Promise.resolve({ kind: 'sent', upload: uploadFor(photo, photo.uploadId ?? 0) });
    },
    isOnline: () => isOnline,
    now: () => now,
    random: () => 0.5,
    newId: () => {
      events.push(`new photo-${++ids}`);
      return `photo-${ids}`;
    },
    withLock: (clientId, task) => {
      events.push(`lock ${clientId}`);
      return busy.has(clientId) ? Promise.resolve('busy') : task();
    },
    requestBackgroundSync: vi.fn(),
    broadcast: vi.fn(),
  };
  const queue = new Queue(deps);
  return {
    queue,
    deps,
    sends,
    texts,
    storedAtSend,
    events,
    advance: (ms: number) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    },
    setOnline: (value: boolean) => {
      isOnline = value;
      queue.setOnline(value);
    },
  };
}

const target = { projectId: 7, projectName: 'Riverside', visitId: 'visit-1' };
const noText = { name: '', description: '' };
const flush = async () => {
  for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
};

// setup.ts gives every test an empty IndexedDB (fake-indexeddb).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('UploadQueue', () => {
  it('stores every photo on the device before sending it, two at a time', async () => {
    const h = harness();
    await h.queue.start(1, 'token-1');
    const { added } = await h.queue.add(
      [photoFile('a.jpg'), photoFile('b.jpg'), photoFile('c.jpg')],
      target,
      {
        name: 'North wall',
        description: 'Rebar',
      },
    );

    expect(added).toHaveLength(3);
    await flush();
    expect(h.sends.map((s) => s.photo.fileName)).toEqual(['a.jpg', 'b.jpg']);
    // The first left as soon as it was stored, not after the whole batch.
    expect(h.events.indexOf('lock photo-1')).toBeLessThan(h.events.indexOf('new photo-3'));
    // What the sender got was already on the device, with its project and text.
    for (const stored of h.storedAtSend) {
      expect(stored).toMatchObject({ projectId: 7, name: 'North wall', description: 'Rebar' });
      expect(stored?.file).toBeTruthy();
    }
    expect(await readQueueSession()).toMatchObject({ userId: 1, token: 'token-1' });
    expect(h.deps.requestBackgroundSync).toHaveBeenCalled();

    h.sends[0]!.resolve({ kind: 'sent', upload: uploadFor(h.sends[0]!.photo, 101) });
    await flush();
    expect(h.sends.map((s) => s.photo.fileName)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    const sent = await getPhoto('photo-1');
    // Acknowledged: the file has left the device, the upload's id stays for the visit.
    expect(sent).toMatchObject({ status: 'sent', uploadId: 101, file: null });
  });

  it('tells listeners about each delivered upload', async () => {
    const h = harness();
    const delivered: number[] = [];
    h.queue.onUploaded((upload) => delivered.push(upload.id));
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    h.sends[0]!.resolve({ kind: 'sent', upload: uploadFor(h.sends[0]!.photo, 5) });
    await flush();
    expect(delivered).toEqual([5]);
    expect(h.queue.getSnapshot().photos[0]).toMatchObject({
      status: 'sent',
      name: 'Project · 14:32',
    });
  });

  it('waits for signal while offline and sends when the connection returns', async () => {
    const h = harness({ online: false });
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    expect(h.sends).toHaveLength(0);
    expect(h.queue.getSnapshot().photos[0]).toMatchObject({ status: 'waiting' });
    h.setOnline(true);
    await flush();
    expect(h.sends).toHaveLength(1);
  });

  it('retries a failed send with backoff, and keeps the reason', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    h.sends[0]!.resolve({ kind: 'retry', message: 'Could not reach the server.' });
    await flush();
    const waiting = h.queue.getSnapshot().photos[0]!;
    expect(waiting).toMatchObject({
      status: 'waiting',
      attempts: 1,
      error: 'Could not reach the server.',
    });
    expect(h.sends).toHaveLength(1);
    h.advance(backoffMs(1, 0.5) - 1);
    await flush();
    expect(h.sends).toHaveLength(1);
    h.advance(1);
    await flush();
    expect(h.sends).toHaveLength(2);
    expect(backoffMs(1, 0.5)).toBe(2000);
    expect(backoffMs(10, 0.5)).toBe(60_000);
  });

  it('stops on a refusal, says why, and sends again only on Retry', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile('doc.jpg')], target, noText);
    await flush();
    h.sends[0]!.resolve({ kind: 'refused', message: 'This file is not an image.' });
    await flush();
    expect(await getPhoto('photo-1')).toMatchObject({
      status: 'refused',
      error: 'This file is not an image.',
    });
    h.advance(10 * 60_000);
    await flush();
    expect(h.sends).toHaveLength(1);
    await h.queue.retry('photo-1');
    await flush();
    expect(h.sends).toHaveLength(2);
  });

  it('keeps a photo whose session was refused, without asking again at once', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    h.sends[0]!.resolve({ kind: 'unauthorized' });
    await flush();
    expect(h.sends).toHaveLength(1);
    expect(await getPhoto('photo-1')).toMatchObject({ status: 'waiting', file: expect.anything() });
    let idle = false;
    void h.queue.whenIdle().then(() => (idle = true));
    await flush();
    expect(idle).toBe(true);
    h.advance(60_000);
    await flush();
    expect(h.sends).toHaveLength(2);
  });

  it('goes on past a photo it cannot store, and says which', async () => {
    // The real storage, except that the device refuses to store one file (full).
    vi.resetModules();
    vi.doMock('./queue-db', async (importOriginal) => {
      const real = await importOriginal<typeof QueueDbModule>();
      return {
        ...real,
        putPhoto: async (photo: QueuedPhoto) => {
          if (photo.fileName === 'bad.jpg')
            throw new DOMException('The device is full.', 'QuotaExceededError');
          return real.putPhoto(photo);
        },
      };
    });
    const { UploadQueue: Queue } = await import('./upload-queue');
    vi.doUnmock('./queue-db');
    const h = harness({ online: false, Queue });
    await h.queue.start(1, 't');
    const { added, failed } = await h.queue.add(
      [photoFile('a.jpg'), photoFile('bad.jpg'), photoFile('c.jpg')],
      target,
      noText,
    );
    expect(added.map((p) => p.fileName)).toEqual(['a.jpg', 'c.jpg']);
    expect(failed.map(({ file }) => file.name)).toEqual(['bad.jpg']);
    expect((await userPhotos(1)).map((p) => p.fileName)).toEqual(['a.jpg', 'c.jpg']);
  });

  it('takes over a photo whose sender went away mid-send (a closed tab)', async () => {
    const held = new Set<string>();
    const tabA = harness();
    const tabB = harness({ busy: held });
    await tabA.queue.start(1, 't');
    await tabB.queue.start(1, 't');
    await tabA.queue.add([photoFile()], target, noText);
    await flush();
    expect(tabA.sends).toHaveLength(1);
    held.add('photo-1'); // tab A holds the photo's lock while it sends
    await tabB.queue.refresh();
    await flush();
    expect(tabB.queue.getSnapshot().photos[0]).toMatchObject({ status: 'sending' });
    expect(tabB.sends).toHaveLength(0);

    // Tab A is closed mid-send: its lock goes with it, its code never runs again.
    held.delete('photo-1');
    tabB.advance(3_000);
    await flush();
    expect(tabB.sends.map((s) => s.photo.clientId)).toEqual(['photo-1']);
    tabB.sends[0]!.resolve({ kind: 'sent', upload: uploadFor(tabB.sends[0]!.photo, 9) });
    await flush();
    expect(await getPhoto('photo-1')).toMatchObject({ status: 'sent', uploadId: 9 });
  });

  it('is idle only once a delivered photo is recorded as sent', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    let statusWhenIdle: string | undefined;
    void h.queue.whenIdle().then(() => {
      statusWhenIdle = h.queue.getSnapshot().photos[0]?.status;
    });
    h.sends[0]!.resolve({ kind: 'sent', upload: uploadFor(h.sends[0]!.photo, 3) });
    await flush();
    expect(statusWhenIdle).toBe('sent');
  });

  it('discards a photo from the device', async () => {
    const h = harness({ online: false });
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await h.queue.discard('photo-1');
    expect(await userPhotos(1)).toEqual([]);
    expect(h.queue.getSnapshot().photos).toEqual([]);
  });

  it('sends text typed before the photo went with it, and text typed after as an edit', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile('a.jpg'), photoFile('b.jpg'), photoFile('c.jpg')], target, noText);
    await flush();
    // c.jpg still waits (two in flight): its text goes with it.
    await h.queue.setText('photo-3', { name: 'Gable', description: 'East' });
    // a.jpg is on its way: its text is saved to the upload once it is there.
    await h.queue.setText('photo-1', { name: 'Ridge', description: '' });
    h.sends[0]!.resolve({ kind: 'sent', upload: uploadFor(h.sends[0]!.photo, 11) });
    await flush();
    expect(h.texts.map((p) => [p.uploadId, p.name])).toEqual([[11, 'Ridge']]);
    expect(await getPhoto('photo-1')).toMatchObject({ textDirty: false, status: 'sent' });
    h.sends[1]!.resolve({ kind: 'sent', upload: uploadFor(h.sends[1]!.photo, 12) });
    await flush();
    expect(h.sends[2]!.photo).toMatchObject({ name: 'Gable', description: 'East' });
  });

  it('keeps tags with the photo: in the form it is sent with, and saved as an edit when changed after', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile('a.jpg'), photoFile('b.jpg')], target, {
      name: '',
      description: '',
      tags: ['concrete', 'level 3'],
    });
    await flush();
    for (const stored of h.storedAtSend) expect(stored?.tags).toEqual(['concrete', 'level 3']);
    const dto = (photo: QueuedPhoto) =>
      JSON.parse(
        buildUploadForm(photo, new Blob(['x'])).get('createUploadDto') as string,
      ) as Record<string, unknown>;
    expect(dto(h.sends[0]!.photo)).toEqual({
      name: '',
      description: '',
      projectId: 7,
      clientId: 'photo-1',
      tags: ['concrete', 'level 3'],
    });
    // A photo without tags sends none (and a record stored before tags existed has none).
    expect(dto({ ...h.sends[0]!.photo, tags: [] })).not.toHaveProperty('tags');
    expect(dto({ ...h.sends[0]!.photo, tags: undefined })).not.toHaveProperty('tags');

    // Tags changed while a.jpg is on its way: saved to the upload once it is there.
    await h.queue.setText('photo-1', { name: '', description: '', tags: ['concrete', 'defect'] });
    h.sends[0]!.resolve({
      kind: 'sent',
      upload: { ...uploadFor(h.sends[0]!.photo, 11), tags: ['concrete', 'level 3'] },
    });
    await flush();
    expect(h.texts.map((p) => [p.uploadId, p.tags])).toEqual([[11, ['concrete', 'defect']]]);
    expect(textUpdateBody(h.texts[0]!)).toEqual({
      upload: { name: '', description: '', projectId: 7, tags: ['concrete', 'defect'] },
    });
    expect(await getPhoto('photo-1')).toMatchObject({ textDirty: false, status: 'sent' });

    // Unchanged: the upload's own tags are kept, nothing more is saved.
    h.sends[1]!.resolve({
      kind: 'sent',
      upload: { ...uploadFor(h.sends[1]!.photo, 12), tags: ['concrete', 'level 3'] },
    });
    await flush();
    expect(await getPhoto('photo-2')).toMatchObject({
      status: 'sent',
      textDirty: false,
      tags: ['concrete', 'level 3'],
    });
    expect(h.texts).toHaveLength(1);
    // Setting the same text again changes nothing; leaving tags out keeps them.
    await h.queue.setText('photo-2', { name: '', description: '', tags: ['concrete', 'level 3'] });
    await h.queue.setText('photo-2', { name: 'Slab', description: '' });
    expect(await getPhoto('photo-2')).toMatchObject({
      name: 'Slab',
      tags: ['concrete', 'level 3'],
      textDirty: true,
    });
  });

  it('saves tags with a later edit only when they were changed here after the photo was sent', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile('a.jpg')], target, { ...noText, tags: ['concrete'] });
    await flush();
    h.sends[0]!.resolve({
      kind: 'sent',
      upload: { ...uploadFor(h.sends[0]!.photo, 21), tags: ['concrete'] },
    });
    await flush();

    // The name is typed later; the tags are left as they were: the save leaves the upload's
    // tags alone (they may have been changed on the photo's page meanwhile).
    await h.queue.setText('photo-1', { name: 'Slab', description: '', tags: ['concrete'] });
    await flush();
    expect(h.texts).toHaveLength(1);
    expect(textUpdateBody(h.texts[0]!)).toEqual({
      upload: { name: 'Slab', description: '', projectId: 7 },
    });

    // Tags changed here: the save sends them.
    await h.queue.setText('photo-1', {
      name: 'Slab',
      description: '',
      tags: ['concrete', 'defect'],
    });
    await flush();
    expect(h.texts).toHaveLength(2);
    expect(textUpdateBody(h.texts[1]!)).toEqual({
      upload: { name: 'Slab', description: '', projectId: 7, tags: ['concrete', 'defect'] },
    });
    expect(await getPhoto('photo-1')).toMatchObject({ textDirty: false, tagsDirty: false });

    // Saved: the next edit of the name alone does not send them again.
    await h.queue.setText('photo-1', { name: 'Slab pour', description: '' });
    await flush();
    expect(textUpdateBody(h.texts[2]!)).toEqual({
      upload: { name: 'Slab pour', description: '', projectId: 7 },
    });
  });

  it('never sends tags for a record stored before tags existed', () => {
    const old: QueuedPhoto = {
      clientId: 'old-1',
      userId: 1,
      projectId: 7,
      projectName: 'Riverside',
      visitId: 'visit-1',
      file: null,
      fileName: 'a.jpg',
      fileType: 'image/jpeg',
      size: 1,
      takenAt: 1,
      name: 'Ridge',
      description: '',
      addedAt: 1,
      status: 'sent',
      attempts: 0,
      nextAttemptAt: 0,
      error: null,
      uploadId: 30,
      sentAt: 1,
      textDirty: true,
    };
    expect(textUpdateBody(old)).toEqual({
      upload: { name: 'Ridge', description: '', projectId: 7 },
    });
    expect(textUpdateBody({ ...old, tagsDirty: true })).not.toHaveProperty('upload.tags');
  });

  it('after a reload, sends what a closed page left behind, once', async () => {
    const first = harness();
    await first.queue.start(1, 't');
    await first.queue.add([photoFile('a.jpg')], target, noText);
    await flush();
    expect(await getPhoto('photo-1')).toMatchObject({ status: 'sending' });
    first.queue.stop();
    await flush();

    const second = harness();
    await second.queue.start(1, 't');
    await flush();
    expect(second.sends.map((s) => s.photo.clientId)).toEqual(['photo-1']);
  });

  it('leaves a photo another sender holds, and looks again later', async () => {
    const busy = new Set(['photo-1']);
    const h = harness({ busy });
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    await flush();
    expect(h.sends).toHaveLength(0);
    busy.clear();
    h.advance(3_000);
    await flush();
    expect(h.sends).toHaveLength(1);
  });

  it("keeps one user's photos from another", async () => {
    const h = harness({ online: false });
    await h.queue.start(1, 't1');
    await h.queue.add([photoFile()], target, noText);
    await h.queue.start(2, 't2');
    await flush();
    expect(h.queue.getSnapshot().photos).toEqual([]);
    await h.queue.start(1, 't1');
    await flush();
    expect(h.queue.getSnapshot().photos).toHaveLength(1);
  });

  it('is idle once nothing is due', async () => {
    const h = harness();
    await h.queue.start(1, 't');
    await h.queue.add([photoFile()], target, noText);
    let idle = false;
    void h.queue.whenIdle().then(() => (idle = true));
    await flush();
    expect(idle).toBe(false);
    h.sends[0]!.resolve({ kind: 'retry', message: 'down' });
    await flush();
    expect(idle).toBe(true);
  });
});
