import { eventPageSchema, type AppEvent, type EventPage } from '@sitelog/shared';
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys, type EventsFilter } from './keys';

/** Events per page. */
export const EVENTS_PAGE = 30;

/** `/api/events?…` for a filter and the page before `before` (an event id). */
export function eventsPath(filter: EventsFilter, before?: number): string {
  const params = new URLSearchParams();
  if (filter.project !== null) params.set('project', String(filter.project));
  if (filter.actor !== null) params.set('actor', String(filter.actor));
  if (before !== undefined) params.set('before', String(before));
  params.set('limit', String(EVENTS_PAGE));
  return `/api/events?${params.toString()}`;
}

/** GET /api/events: one page of the team's timeline, newest first. */
export const getEvents = (filter: EventsFilter, before?: number, signal?: AbortSignal) =>
  api.get(eventsPath(filter, before), eventPageSchema, { signal });

/** The timeline for a filter, page after page by the `next` cursor; read as one list. */
export const eventsInfiniteOptions = (filter: EventsFilter) =>
  infiniteQueryOptions({
    queryKey: notificationKeys.events(filter),
    queryFn: ({ pageParam, signal }) => getEvents(filter, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: EventPage) => last.next ?? undefined,
    // Each event once, should a page boundary have moved between two fetches.
    select: (data: InfiniteData<EventPage, number | undefined>): AppEvent[] => {
      const seen = new Set<number>();
      return data.pages
        .flatMap((page) => page.events)
        .filter((event) => !seen.has(event.id) && Boolean(seen.add(event.id)));
    },
  });

export const useEvents = (filter: EventsFilter) => useInfiniteQuery(eventsInfiniteOptions(filter));
