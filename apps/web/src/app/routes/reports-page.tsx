import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { afterReportChange } from '../invalidations';
import { archivedProjectsQueryOptions } from '@/features/projects/api/get-archived-projects';
import { projectRowsQueryOptions } from '@/features/projects/api/get-project-rows';
import { useReports, type ReportsFilter } from '@/features/reports/api/get-reports';
import {
  ReportsFilters,
  type ReportsChoice,
  type ReportsChoices,
} from '@/features/reports/components/reports-filters';
import { ReportsList } from '@/features/reports/components/reports-list';
import {
  readReportsFilter,
  writeReportsFilter,
  type ReportsFilterChange,
} from '@/features/reports/reports-params';
import { profilesQueryOptions } from '@/features/users/api/get-profiles';

/**
 * The navigation state that has /reports put the focus on its heading when it opens: after a
 * report was deleted on its page (the page and the button pressed are gone).
 */
export const focusReportsHeading = { focusReportsHeading: true } as const;

/** Focuses the page's h1 (made focusable by script only) when the navigation asked for it. */
function useFocusHeadingOnArrival() {
  const location = useLocation();
  const header = useRef<HTMLDivElement>(null);
  const asked =
    typeof location.state === 'object' &&
    location.state !== null &&
    'focusReportsHeading' in location.state;
  useEffect(() => {
    if (!asked) return;
    const heading = header.current?.querySelector('h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [asked, location.key]);
  return header;
}

/**
 * The filters live in the address, so a filtered list can be shared, reloaded and walked back
 * (the project page's ALL REPORTS opens `?project=`); each write starts from the last one's
 * parameters, so two changes in one event both land.
 */
function useReportsFilter() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const filter = useMemo(() => readReportsFilter(params), [params]);
  const update = (changes: ReportsFilterChange) => {
    const next = writeReportsFilter(latest.current, changes);
    if (next.toString() === latest.current.toString()) return;
    latest.current = next;
    setParams(next);
  };
  return { filter, update };
}

/**
 * Every project (archived ones too: their reports stay) and every member, the signed-in one
 * first as "Me", for the choosers.
 */
function useChoices(filter: ReportsFilter, wanted: boolean) {
  const viewer = useCurrentUser();
  const needProjects = wanted || filter.project !== undefined;
  const needPeople = wanted || filter.author !== undefined;
  const rows = useQuery({ ...projectRowsQueryOptions(), enabled: needProjects });
  const archived = useQuery({ ...archivedProjectsQueryOptions(), enabled: needProjects });
  const profiles = useQuery({ ...profilesQueryOptions(), enabled: needPeople });
  const projects: ReportsChoices = useMemo(() => {
    const options: ReportsChoice[] = (rows.data ?? []).map((row) => ({
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
  const people: ReportsChoices = useMemo(() => {
    const me: ReportsChoice = {
      id: viewer.id,
      label: `Me (${viewer.firstname} ${viewer.lastname})`,
    };
    const others = (profiles.data?.profiles ?? [])
      .filter((profile) => profile.id !== viewer.id)
      .map((profile) => ({
        id: profile.id,
        label: profile.isActive
          ? `${profile.firstname} ${profile.lastname}`
          : `${profile.firstname} ${profile.lastname} (deactivated)`,
      }));
    return {
      options: [me, ...others],
      loading: needPeople && profiles.isPending,
      error: profiles.isError ? 'The team could not be loaded.' : undefined,
    };
  }, [viewer, profiles.data, profiles.isPending, profiles.isError, needPeople]);
  return { projects, people };
}

/**
 * /reports (the side menu's Reports): the latest reports across projects, newest first, with
 * LOAD MORE; filtered by project, type and author (kept in the address). Each report shows
 * where its PDF is (polled while one is being made), DOWNLOAD and its page.
 */
export function ReportsPage() {
  useDocumentTitle('Reports');
  const header = useFocusHeadingOnArrival();
  const { filter, update } = useReportsFilter();
  // The choosers' lists (every project, the team) are fetched when one is first opened.
  const [choicesWanted, setChoicesWanted] = useState(false);
  const choices = useChoices(filter, choicesWanted);
  // The reports shown name the filtered project and author before the lists arrive.
  const shown = useReports(filter).data;
  const names = {
    project: shown?.find((report) => report.project.id === filter.project)?.project.name ?? null,
    author: (() => {
      const author = shown?.find((report) => report.author.id === filter.author)?.author;
      return author ? `${author.firstname} ${author.lastname}` : null;
    })(),
  };
  return (
    <>
      <Box ref={header}>
        <PageHeader
          title="Reports"
          subtitle="PDF reports of the team’s photos, newest first. Make one from a project’s Reports section."
        />
      </Box>
      <ReportsFilters
        filter={filter}
        onChange={update}
        projects={choices.projects}
        people={choices.people}
        names={names}
        onChoicesWanted={() => setChoicesWanted(true)}
      />
      <ReportsList
        filter={filter}
        onClearFilters={() => update({ project: null, type: null, author: null })}
        invalidate={afterReportChange()}
      />
    </>
  );
}
