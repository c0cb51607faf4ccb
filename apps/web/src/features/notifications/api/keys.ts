import { unreadKey } from './unread-key';

/** Query keys of the notifications feature: one root, so a change can refresh all of it. */
export const notificationKeys = {
  all: ['notifications'] as const,
  /** The bell's unread count (with the ETag it was answered with). */
  unread: () => unreadKey,
  /** The signed-in member's notifications, page by page. */
  list: () => [...notificationKeys.all, 'list'] as const,
  /** What notifies the member, and the projects they muted. */
  settings: () => [...notificationKeys.all, 'settings'] as const,
  mutes: () => [...notificationKeys.all, 'mute'] as const,
  /** Whether the member muted one project. */
  mute: (projectId: number) => [...notificationKeys.mutes(), projectId] as const,
  /** The team's timeline, page by page, for one filter. */
  eventLists: () => [...notificationKeys.all, 'events'] as const,
  events: (filter: EventsFilter) => [...notificationKeys.eventLists(), filter] as const,
};

/** The timeline's filters: one project, one person, or both (null: any). */
export interface EventsFilter {
  project: number | null;
  actor: number | null;
}
