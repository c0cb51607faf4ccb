import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { AppEvent } from '@sitelog/shared';
import { useId } from 'react';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { useCurrentUser } from '@/lib/session';
import { useEvents } from '../api/get-events';
import type { EventsFilter } from '../api/keys';
import { formatDayHeading, localDayKey } from '../activity-time';
import { ActivityItem, ActivityList } from './activity-item';
import { LoadMore } from './load-more';
import { RefreshError } from './refresh-error';

interface Day {
  key: string;
  heading: string;
  events: AppEvent[];
}

/** Events (newest first) in runs of one calendar day of the viewer's. */
export function groupByDay(events: readonly AppEvent[], now: Date = new Date()): Day[] {
  const days: Day[] = [];
  for (const event of events) {
    const key = localDayKey(event.createdAt);
    const last = days.at(-1);
    if (last && last.key === key) last.events.push(event);
    else days.push({ key, heading: formatDayHeading(event.createdAt, now), events: [event] });
  }
  return days;
}

function DayGroup({ day, viewerId }: { day: Day; viewerId: number }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <Typography
        id={headingId}
        component="h2"
        variant="subtitle2"
        color="text.secondary"
        sx={{ mb: 1, textTransform: 'uppercase', letterSpacing: '0.06em' }}
      >
        {day.heading}
      </Typography>
      <ActivityList label={day.heading}>
        {day.events.map((event) => (
          <ActivityItem key={event.id} event={event} viewerId={viewerId} />
        ))}
      </ActivityList>
    </Box>
  );
}

/**
 * The team's timeline for a filter: every project's photos, comments, mentions and changes,
 * newest first, under a heading per day, with LOAD MORE. `onClearFilters` is offered when a
 * filtered timeline is empty.
 */
export function EventsTimeline({
  filter,
  onClearFilters,
}: {
  filter: EventsFilter;
  onClearFilters: () => void;
}) {
  const viewer = useCurrentUser();
  const events = useEvents(filter);
  const filtered = filter.project !== null || filter.actor !== null;

  if (events.isPending) return <ListSkeleton rows={8} label="Loading events…" />;
  // The full error only when nothing loaded; a failed refresh keeps the events (see below).
  if (events.isLoadingError)
    return (
      <ErrorState
        error={events.error}
        title="Could not load the events"
        onRetry={() => void events.refetch()}
        retrying={events.isFetching}
      />
    );
  const refreshError = events.isRefetchError ? (
    <RefreshError
      error={events.error}
      what="events"
      onRetry={() => void events.refetch()}
      retrying={events.isFetching}
    />
  ) : null;
  if (events.data.length === 0)
    return (
      <>
        {refreshError}
        {filtered ? (
          <EmptyState
            icon={<EventNoteOutlined />}
            message="No events match these filters"
            description="Try another project or person, or clear the filters."
            action={<Button onClick={onClearFilters}>Clear filters</Button>}
          />
        ) : (
          <EmptyState
            icon={<EventNoteOutlined />}
            message="Nothing has happened yet"
            description="New photos, comments and project changes across the team will show here."
          />
        )}
      </>
    );
  return (
    <>
      {refreshError}
      {groupByDay(events.data).map((day) => (
        <DayGroup key={day.key} day={day} viewerId={viewer.id} />
      ))}
      <LoadMore query={events} what="events" />
    </>
  );
}
