import type { QueuedPhoto } from './queue-db';

export type PhotoTone = 'waiting' | 'sending' | 'sent' | 'failed' | 'refused';

export interface PhotoStatus {
  tone: PhotoTone;
  /** One short line for the tile: "Waiting for signal", "Sending 40 %", "Sent"… */
  label: string;
  /** Why, when it failed or was refused (the server's message). */
  detail: string | null;
  /** Upload progress 0..1, or null when unknown; undefined when not being sent here. */
  fraction: number | null | undefined;
}

/** What the user sees of a queued photo's state. */
export function photoStatus(
  photo: QueuedPhoto,
  {
    online,
    fraction,
  }: {
    online: boolean;
    /** Its send progress in this page, if it is being sent here. */
    fraction?: number | null | undefined;
  },
): PhotoStatus {
  switch (photo.status) {
    case 'sent':
      if (photo.textDirty)
        return {
          tone: 'sent',
          label: 'Sent · saving text',
          detail: photo.error,
          fraction: undefined,
        };
      // A text save the server refused (the photo was deleted meanwhile…): say so.
      return photo.error
        ? {
            tone: 'refused',
            label: 'Sent · text not saved',
            detail: photo.error,
            fraction: undefined,
          }
        : { tone: 'sent', label: 'Sent', detail: null, fraction: undefined };
    case 'refused':
      return { tone: 'refused', label: 'Not accepted', detail: photo.error, fraction: undefined };
    case 'sending':
      if (fraction === undefined)
        return { tone: 'sending', label: 'Sending', detail: null, fraction: null };
      return fraction !== null && fraction >= 1
        ? { tone: 'sending', label: 'Processing', detail: null, fraction: null }
        : {
            tone: 'sending',
            label: fraction === null ? 'Sending' : `Sending ${Math.round(fraction * 100)} %`,
            detail: null,
            fraction,
          };
    case 'waiting':
      if (!online)
        return { tone: 'waiting', label: 'Waiting for signal', detail: null, fraction: undefined };
      if (photo.attempts > 0)
        return {
          tone: 'failed',
          label: 'Failed, will retry',
          detail: photo.error,
          fraction: undefined,
        };
      return { tone: 'waiting', label: 'Queued', detail: null, fraction: undefined };
  }
}
