/** The name of the queue's channel, Web Locks and Background Sync tag. */
export const QUEUE_CHANNEL = 'sitelog-upload-queue';

/**
 * Runs `task` holding the photo's Web Lock, or answers 'busy' when another sender (a second tab,
 * the service worker) holds it: one sender per photo at a time on this device. Where Web Locks
 * are missing, `task` runs anyway; the idempotency key keeps a second send harmless.
 */
export async function withPhotoLock<T>(
  clientId: string,
  task: () => Promise<T>,
): Promise<T | 'busy'> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  return locks.request(`${QUEUE_CHANNEL}:${clientId}`, { ifAvailable: true }, (lock) =>
    lock ? task() : ('busy' as const),
  );
}
