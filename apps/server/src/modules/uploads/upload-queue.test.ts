// The decode queue over HTTP: when it is full, an upload is answered 503 with Retry-After at
// once, and leaves nothing behind.
import type { ErrorResponse as ErrorBody } from '@sitelog/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../../test/factories.js';
import { createTestContext, signedInUser, type TestContext } from '../../../test/helpers.js';
import { jpegWithExif } from '../../../test/images.js';
import {
  dtoPart,
  filePart,
  postUpload,
  storedKeys,
  tempFiles,
  uploadRowCount,
} from '../../../test/uploads.js';
import { sharpAdapter, type ImageAdapter } from '../../media/sharp-adapter.js';

/** The real image library, except that decoding waits until the test opens the gate. */
function gatedAdapter() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const adapter: ImageAdapter = {
    ...sharpAdapter,
    decodeUpright: async (...args) => {
      waiting += 1;
      await opened;
      return sharpAdapter.decodeUpright(...args);
    },
  };
  return { adapter, open, waiting: () => waiting };
}

describe('POST /api/upload/autoupload when the decode queue is full', () => {
  let ctx: TestContext;
  let token: string;
  let projectId: number;
  const gate = gatedAdapter();

  beforeAll(async () => {
    ctx = await createTestContext(
      { IMAGE_CONCURRENCY: '1' },
      { images: { maxQueue: 1, adapter: gate.adapter } },
    );
    const user = await signedInUser(ctx);
    token = user.token;
    projectId = (await buildProject(ctx, { creatorId: user.id })).id;
  });
  afterAll(async () => {
    gate.open();
    await ctx?.close();
  });

  it('answers 503 with Retry-After at once, keeps nothing, and the queued uploads go through', async () => {
    const photo = await jpegWithExif();
    const upload = () => postUpload(ctx, token, [filePart(photo), dtoPart({ projectId })]);

    // One upload decoding (held at the gate), one waiting: the queue of one is full.
    const decoding = upload();
    await expect.poll(() => gate.waiting()).toBe(1);
    const queued = upload();
    await expect.poll(() => ctx.images.queued).toBe(1);
    expect(ctx.images.active).toBe(1);
    const tempBefore = tempFiles(ctx).sort();
    expect(tempBefore).toHaveLength(2);

    // Answered while the gate is still shut: refused at once, not after waiting its turn.
    const refused = await upload();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json<ErrorBody>()).toMatchObject({
      code: 'busy',
      message: 'The server is busy processing other photos. Try again in a moment.',
    });
    expect(tempFiles(ctx).sort()).toEqual(tempBefore);
    expect(await storedKeys(ctx)).toEqual([]);
    expect(await uploadRowCount(ctx)).toBe(0);

    gate.open();
    const [first, second] = await Promise.all([decoding, queued]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(await uploadRowCount(ctx)).toBe(2);
    expect(await storedKeys(ctx)).toHaveLength(6);
    expect(tempFiles(ctx)).toEqual([]);
    expect([ctx.images.active, ctx.images.queued]).toEqual([0, 0]);
  });
});
