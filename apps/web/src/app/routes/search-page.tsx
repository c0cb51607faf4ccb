import FilterListOutlined from '@mui/icons-material/FilterListOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { searchLimits, type SearchType } from '@sitelog/shared';
import { useQuery, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { ListSkeleton } from '@/components/skeletons';
import { useDocumentTitle } from '@/lib/use-document-title';
import { archivedProjectsQueryOptions } from '@/features/projects/api/get-archived-projects';
import { projectRowsQueryOptions } from '@/features/projects/api/get-project-rows';
import { ProjectGrid, ProjectGridSkeleton } from '@/features/projects/components/project-card';
import { useSearchSection } from '@/features/search/api/search';
import { useHighlighter } from '@/features/search/components/highlight';
import { PeopleResults } from '@/features/search/components/people-results';
import { ReportResults } from '@/features/search/components/report-results';
import {
  SearchFiltersPanel,
  type FilterChoice,
  type FilterChoices,
} from '@/features/search/components/search-filters';
import {
  countFilters,
  isSearchable,
  photoFilterDefaults,
  readSearchParams,
  writeSearchParams,
  type SearchFilters,
} from '@/features/search/search-params';
import { UploadsFeed } from '@/features/uploads/components/uploads-feed';
import { profilesQueryOptions } from '@/features/users/api/get-profiles';

const tabs: { type: SearchType; label: string }[] = [
  { type: 'all', label: 'All' },
  { type: 'projects', label: 'Projects' },
  { type: 'uploads', label: 'Photos' },
  { type: 'reports', label: 'Reports' },
  { type: 'people', label: 'People' },
];

/**
 * The address is the page's state: every write starts from the parameters the last write left
 * (not those of the render that made the callback), so two changes in one event both land.
 * A change is a new history entry, so Back undoes it.
 */
function useSearchState() {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  const filters = useMemo(() => readSearchParams(params), [params]);
  const update = (changes: Partial<SearchFilters>) => {
    const next = writeSearchParams(latest.current, changes);
    if (next.toString() === latest.current.toString()) return;
    latest.current = next;
    setParams(next);
  };
  return { filters, update };
}

/** The search field of the page: the address's query, sent on Enter (or the button). */
function QueryField({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q);
  const [seen, setSeen] = useState(q);
  // The address's query changed (the top bar, Back): the field follows it.
  if (q !== seen) {
    setSeen(q);
    setText(q);
  }
  return (
    <Box
      component="form"
      role="search"
      aria-label="Search the workspace"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text);
      }}
      sx={{ mb: 2 }}
    >
      <TextField
        fullWidth
        type="search"
        label="Search for"
        value={text}
        onChange={(event) => setText(event.target.value)}
        autoComplete="off"
        slotProps={{
          htmlInput: { enterKeyHint: 'search', maxLength: searchLimits.queryMax },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton type="submit" edge="end" aria-label="Search now">
                  <SearchIcon />
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}

/** The first page failed, or a later one (the pages already shown stay). */
function LoadMore({ query }: { query: UseInfiniteQueryResult<unknown[]> }) {
  const nextFailed = query.isFetchNextPageError;
  if (!query.hasNextPage && !nextFailed) return null;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      {nextFailed ? <ErrorState error={query.error} title="Could not load more results" /> : null}
      {query.hasNextPage ? (
        <Stack direction="row" sx={{ justifyContent: 'center' }}>
          <Button
            variant="outlined"
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
          >
            Load more
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}

function NoneInSection({ children }: { children: ReactNode }) {
  return (
    <Typography color="text.secondary" sx={{ py: 1 }}>
      {children}
    </Typography>
  );
}

/** A section's first load failed: the server's message and RETRY. */
function SectionError({ query, what }: { query: UseInfiniteQueryResult<unknown[]>; what: string }) {
  return (
    <ErrorState
      error={query.error}
      title={`Could not search ${what}`}
      onRetry={() => void query.refetch()}
      retrying={query.isFetching}
    />
  );
}

const failedFirstPage = (query: UseInfiniteQueryResult<unknown[]>) =>
  query.isError && !query.isFetchNextPageError;

/** Lists of ids and names for the filters' choosers, fetched once a chooser is needed. */
function useFilterChoices(filters: SearchFilters, wanted: boolean) {
  const needProjects = wanted || filters.project !== null;
  const needPeople = wanted || filters.author !== null;
  const rows = useQuery({ ...projectRowsQueryOptions(), enabled: needProjects });
  // Archived projects are not among the rows: offered too when they are included.
  const archived = useQuery({
    ...archivedProjectsQueryOptions(),
    enabled: needProjects && filters.archived,
  });
  const profiles = useQuery({ ...profilesQueryOptions(), enabled: needPeople });
  const projects: FilterChoices = useMemo(() => {
    const options: FilterChoice[] = (rows.data ?? []).map((row) => ({
      id: row.id,
      label: row.name,
    }));
    if (filters.archived)
      for (const project of archived.data ?? [])
        options.push({ id: project.id, label: `${project.name} (archived)` });
    return {
      options,
      loading: rows.isPending && needProjects,
      error: rows.isError ? 'The projects could not be loaded.' : undefined,
    };
  }, [rows.data, rows.isPending, rows.isError, archived.data, filters.archived, needProjects]);
  const people: FilterChoices = useMemo(
    () => ({
      options: (profiles.data?.profiles ?? []).map((profile) => ({
        id: profile.id,
        label: `${profile.firstname} ${profile.lastname}`,
      })),
      loading: profiles.isPending && needPeople,
      error: profiles.isError ? 'The team could not be loaded.' : undefined,
    }),
    [profiles.data, profiles.isPending, profiles.isError, needPeople],
  );
  return { projects, people };
}

/**
 * /search?q=…: projects, photos, reports and people matching every word (spec §2), the words
 * marked. The address holds the query, the section shown (`type`) and the filters (photos and
 * reports by `project`, `author`, a date range `from`–`to`, by upload or capture time `by` for
 * photos and the day made for reports; `archived` projects), so a search can be shared, reloaded
 * and walked back. Each section pages by its `next` cursor.
 */
export function SearchPage() {
  const { filters, update } = useSearchState();
  const { q, type } = filters;
  useDocumentTitle(q ? `Search: ${q}` : 'Search');
  const searchable = isSearchable(q);
  const shows = (section: Exclude<SearchType, 'all'>) => type === 'all' || type === section;
  const projects = useSearchSection('projects', filters, searchable && shows('projects'));
  const uploads = useSearchSection('uploads', filters, searchable && shows('uploads'));
  const people = useSearchSection('people', filters, searchable && shows('people'));
  const reports = useSearchSection('reports', filters, searchable && shows('reports'));
  const mark = useHighlighter(q);
  const tabId = useId();
  const filtersId = useId();
  // On a phone the filters fold away behind a button.
  const [filtersOpen, setFiltersOpen] = useState(false);
  // The choosers' lists (every project, the team) are fetched when one is first opened.
  const [choicesWanted, setChoicesWanted] = useState(false);
  // Project, author and dates narrow photos and reports; which time of a photo, photos alone.
  const showPhotoFilters = shows('uploads') || shows('reports');
  const showFilters = type !== 'people';
  const choices = useFilterChoices(filters, showPhotoFilters && choicesWanted);
  const filterCount = countFilters(filters);
  const clearFilters = () => update({ ...photoFilterDefaults });

  const sectionsShown = [
    shows('projects') ? projects : null,
    shows('uploads') ? uploads : null,
    shows('reports') ? reports : null,
    shows('people') ? people : null,
  ].filter((query) => query !== null);
  const nothingFound =
    searchable && sectionsShown.every((query) => query.isSuccess && query.data.length === 0);

  const noneText = (what: string) => `No ${what} match “${q}”.`;
  const projectsSection = projects.isPending ? (
    <ProjectGridSkeleton count={4} label="Searching projects…" />
  ) : failedFirstPage(projects) ? (
    <SectionError query={projects} what="projects" />
  ) : projects.data?.length ? (
    <>
      <ProjectGrid
        projects={projects.data}
        label="Projects found"
        showDescription
        renderText={mark}
      />
      <LoadMore query={projects} />
    </>
  ) : (
    <NoneInSection>{noneText('projects')}</NoneInSection>
  );
  const photosSection = (
    <UploadsFeed
      query={uploads}
      label="Photos"
      empty={<NoneInSection>{noneText('photos')}</NoneInSection>}
      skeletonCount={6}
      showProject
      byDay={false}
      renderText={mark}
    />
  );
  const peopleSection = people.isPending ? (
    <ListSkeleton rows={3} label="Searching people…" />
  ) : failedFirstPage(people) ? (
    <SectionError query={people} what="people" />
  ) : people.data?.length ? (
    <>
      <PeopleResults people={people.data} renderText={mark} />
      <LoadMore query={people} />
    </>
  ) : (
    <NoneInSection>{noneText('people')}</NoneInSection>
  );

  const reportsSection = reports.isPending ? (
    <ListSkeleton rows={3} label="Searching reports…" />
  ) : failedFirstPage(reports) ? (
    <SectionError query={reports} what="reports" />
  ) : reports.data?.length ? (
    <>
      <ReportResults reports={reports.data} renderText={mark} />
      <LoadMore query={reports} />
    </>
  ) : (
    <NoneInSection>{noneText('reports')}</NoneInSection>
  );

  let results: ReactNode;
  if (!searchable) {
    results = (
      <EmptyState
        icon={<SearchIcon />}
        message={
          q === ''
            ? 'Search projects, photos, reports and people'
            : `Type at least ${searchLimits.queryMin} characters to search`
        }
        description="Every word is matched, the start of a word too (“reba” finds rebar), accents and capitals aside."
      />
    );
  } else if (nothingFound) {
    results = (
      <EmptyState
        icon={<SearchOffOutlined />}
        message={`No results for “${q}”`}
        description={
          filterCount > 0
            ? 'Try fewer words, or clear the filters.'
            : filters.archived
              ? 'Try fewer words or the start of a word.'
              : 'Try fewer words or the start of a word, or include archived projects.'
        }
        action={
          filterCount > 0 ? (
            <Button variant="outlined" onClick={clearFilters}>
              Clear filters
            </Button>
          ) : undefined
        }
      />
    );
  } else {
    results = (
      <>
        {shows('projects') ? <Section title="Projects">{projectsSection}</Section> : null}
        {shows('uploads') ? <Section title="Photos">{photosSection}</Section> : null}
        {shows('reports') ? <Section title="Reports">{reportsSection}</Section> : null}
        {shows('people') ? <Section title="People">{peopleSection}</Section> : null}
      </>
    );
    // Offline before anything arrived: said once for the page, not once per section.
    results = (
      <OfflineFallback loading={sectionsShown.every((query) => query.isPending)}>
        {results}
      </OfflineFallback>
    );
  }

  return (
    <>
      <PageHeader
        title="Search"
        subtitle={q ? <>Results for “{q}”</> : 'Look through projects, photos, reports and people.'}
      />
      <QueryField q={q} onSearch={(text) => update({ q: text })} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={type}
          onChange={(_, value: SearchType) => update({ type: value })}
          aria-label="Sections"
          variant="scrollable"
          scrollButtons={false}
        >
          {tabs.map((tab) => (
            <Tab
              key={tab.type}
              value={tab.type}
              label={tab.label}
              id={`${tabId}-${tab.type}`}
              aria-controls={`${tabId}-panel`}
              // Narrower (and a size smaller) on a phone, so the five fit 375 px without
              // scrolling.
              sx={{
                minWidth: { xs: 0, sm: 90 },
                px: { xs: 1, sm: 2 },
                fontSize: { xs: '0.8125rem', sm: '0.875rem' },
              }}
            />
          ))}
        </Tabs>
      </Box>
      {showFilters ? (
        <Box sx={{ mb: 3 }}>
          <Button
            variant="outlined"
            size="small"
            startIcon={<FilterListOutlined />}
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
            sx={{ display: { sm: 'none' }, mb: filtersOpen ? 1.5 : 0 }}
          >
            Filters{filterCount > 0 ? ` (${filterCount})` : ''}
          </Button>
          <Paper
            id={filtersId}
            variant="outlined"
            component="section"
            aria-label="Filters"
            sx={{ p: 2, display: { xs: filtersOpen ? 'block' : 'none', sm: 'block' } }}
          >
            <SearchFiltersPanel
              filters={filters}
              onChange={update}
              projects={choices.projects}
              people={choices.people}
              showPhotoFilters={showPhotoFilters}
              showDateBasis={shows('uploads')}
              showReportDates={shows('reports')}
              onChoicesWanted={() => setChoicesWanted(true)}
            />
          </Paper>
        </Box>
      ) : null}
      <Box role="tabpanel" id={`${tabId}-panel`} aria-labelledby={`${tabId}-${type}`}>
        {results}
      </Box>
    </>
  );
}
