import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/lib/use-document-title';
import { archivedProjectsQueryOptions } from '@/features/projects/api/get-archived-projects';
import { projectRowsQueryOptions } from '@/features/projects/api/get-project-rows';
import { useEvents } from '@/features/notifications/api/get-events';
import type { EventsFilter } from '@/features/notifications/api/keys';
import {
  EventsFilters,
  type EventsChoice,
  type EventsChoices,
} from '@/features/notifications/components/events-filters';
import { EventsTimeline } from '@/features/notifications/components/events-timeline';
import { readEventsFilter, writeEventsFilter } from '@/features/notifications/events-params';
import { profilesQueryOptions } from '@/features/users/api/get-profiles';

/**
 * The filters live in the address, so a filtered timeline can be shared, reloaded and walked
 * back; each write starts from the last one's parameters, so two changes in one event both land.
 */
function useEventsFilter() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const filter = useMemo(() => readEventsFilter(params), [params]);
  const update = (changes: Partial<EventsFilter>) => {
    const next = writeEventsFilter(latest.current, changes);
    if (next.toString() === latest.current.toString()) return;
    latest.current = next;
    setParams(next);
  };
  return { filter, update };
}

/** Every project (archived ones too: their events stay) and every member, for the choosers. */
function useChoices(filter: EventsFilter, wanted: boolean) {
  const needProjects = wanted || filter.project !== null;
  const needPeople = wanted || filter.actor !== null;
  const rows = useQuery({ ...projectRowsQueryOptions(), enabled: needProjects });
  const archived = useQuery({ ...archivedProjectsQueryOptions(), enabled: needProjects });
  const profiles = useQuery({ ...profilesQueryOptions(), enabled: needPeople });
  const projects: EventsChoices = useMemo(() => {
    const options: EventsChoice[] = (rows.data ?? []).map((row) => ({
      id: row.id,
      label: row.name,
    }));
    for (const project of archived.data ?? [])
      options.push({ id: project.id, label: `${project.name} (archived)` });
    return {
      options,
      loading: needProjects && rows.isPending,
      error: rows.isError ? 'The projects could not be loaded.' : undefined,
    };
  }, [rows.data, rows.isPending, rows.isError, archived.data, needProjects]);
  const people: EventsChoices = useMemo(
    () => ({
      options: (profiles.data?.profiles ?? []).map((profile) => ({
        id: profile.id,
        label: profile.isActive
          ? `${profile.firstname} ${profile.lastname}`
          : `${profile.firstname} ${profile.lastname} (deactivated)`,
      })),
      loading: needPeople && profiles.isPending,
      error: profiles.isError ? 'The team could not be loaded.' : undefined,
    }),
    [profiles.data, profiles.isPending, profiles.isError, needPeople],
  );
  return { projects, people };
}

/**
 * /events (the side menu's Events): the team's activity timeline, everything in every project,
 * grouped by day, filtered by project and by person (kept in the address), with LOAD MORE.
 */
export function EventsPage() {
  useDocumentTitle('Events');
  const { filter, update } = useEventsFilter();
  // The choosers' lists (every project, the team) are fetched when one is first opened.
  const [choicesWanted, setChoicesWanted] = useState(false);
  const choices = useChoices(filter, choicesWanted);
  // The events shown name the filtered project and person before the lists arrive.
  const shown = useEvents(filter).data;
  const names = {
    project: shown?.find((event) => event.project.id === filter.project)?.project.name ?? null,
    actor: (() => {
      const actor = shown?.find((event) => event.actor.id === filter.actor)?.actor;
      return actor ? `${actor.firstname} ${actor.lastname}` : null;
    })(),
  };
  return (
    <>
      <PageHeader title="Events" subtitle="What the team has done, in every project." />
      <EventsFilters
        filter={filter}
        onChange={update}
        projects={choices.projects}
        people={choices.people}
        names={names}
        onChoicesWanted={() => setChoicesWanted(true)}
      />
      <EventsTimeline
        filter={filter}
        onClearFilters={() => update({ project: null, actor: null })}
      />
    </>
  );
}
