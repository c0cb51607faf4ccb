/** Runs at most `concurrency` tasks at once; the rest wait in FIFO order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly queued: number;
}

export interface LimiterOptions {
  /**
   * Most tasks allowed to wait; beyond it `run` rejects at once with `onFull()` instead of
   * queueing without bound. Unlimited when unset.
   */
  maxQueue?: number;
  onFull?: () => Error;
}

/** Creates a FIFO concurrency limiter (in-process: each server instance has its own). */
export function createLimiter(concurrency: number, options: LimiterOptions = {}): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const waiting: (() => void)[] = [];
  let active = 0;

  const release = () => {
    active -= 1;
    const next = waiting.shift();
    if (next) {
      active += 1;
      next();
    }
  };

  return {
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < concurrency) {
        active += 1;
      } else {
        if (options.maxQueue !== undefined && waiting.length >= options.maxQueue) {
          throw options.onFull ? options.onFull() : new Error('Too many tasks are waiting.');
        }
        // The slot is handed over by `release`, which has already counted it as active.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
