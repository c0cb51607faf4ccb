import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once.js';

describe('loadOnce', () => {
  it('loads on the first call only and gives every caller the same value', async () => {
    let loads = 0;
    const get = loadOnce(async () => ({ n: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([get(), get()]);
    const c = await get();
    expect(loads).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('first load fails');
      return loads;
    });
    await expect(get()).rejects.toThrow('first load fails');
    await expect(get()).resolves.toBe(2);
    await expect(get()).resolves.toBe(2);
    expect(loads).toBe(2);
  });

  it('settled() answers what was loaded, without starting a load', async () => {
    let loads = 0;
    const get = loadOnce(async () => ++loads);
    await expect(get.settled()).resolves.toBeNull();
    expect(loads).toBe(0);
    await get();
    await expect(get.settled()).resolves.toBe(1);

    const failing = loadOnce(() => Promise.reject(new Error('cannot load')));
    await expect(failing()).rejects.toThrow('cannot load');
    await expect(failing.settled()).resolves.toBeNull();
  });

  it('settled() waits for a load in progress', async () => {
    let finish!: (value: string) => void;
    const get = loadOnce(() => new Promise<string>((resolve) => (finish = resolve)));
    const loading = get();
    const settled = get.settled();
    finish('made');
    await expect(settled).resolves.toBe('made');
    await expect(loading).resolves.toBe('made');
  });
});
