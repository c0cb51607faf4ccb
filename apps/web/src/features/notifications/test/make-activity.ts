import type { AppEvent, AppNotification } from '@sitelog/shared';

export const aisha = { id: 3, firstname: 'Aisha', lastname: 'Khan', active: true };
export const ben = { id: 4, firstname: 'Ben', lastname: 'Ray', active: true };
export const riverside = { id: 12, name: 'Riverside Block C' };

/** An event as the API answers it, for component tests: by default Aisha adds a photo. */
export function makeEvent(overrides: Partial<AppEvent> = {}): AppEvent {
  return {
    id: 100,
    kind: 'upload.added',
    actor: aisha,
    project: riverside,
    upload: { id: 55, name: 'Slab pour', previewLink: '/media/preview/55.jpg?sig=x' },
    excerpt: null,
    mentioned: null,
    count: 1,
    createdAt: '2026-11-23T09:00:00.000Z',
    ...overrides,
  };
}

/** A notification as the API answers it (unread, for a followed project, unless told). */
export function makeNotification(overrides: Partial<AppNotification> = {}): AppNotification {
  return { ...makeEvent(), reason: 'follower', read: false, ...overrides };
}
