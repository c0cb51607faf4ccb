import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import type { EventsFilter } from '../api/keys';

/** A project or a member to filter by. */
export interface EventsChoice {
  id: number;
  label: string;
}

/** The choices of one chooser, as its query has them so far. */
export interface EventsChoices {
  options: readonly EventsChoice[];
  loading: boolean;
  /** Said in the chooser when its list could not be loaded. */
  error?: string;
}

/** A long list (thousands of projects) shows the first matches only, as the user narrows it. */
const filterChoices = createFilterOptions<EventsChoice>({ limit: 50 });

function Chooser({
  label,
  value,
  choices,
  fallbackLabel,
  onChange,
  onOpen,
}: {
  label: string;
  value: number | null;
  choices: EventsChoices;
  /** How the chosen id reads while it is not among the options: its name if known. */
  fallbackLabel: (id: number) => string | null;
  onChange: (id: number | null) => void;
  onOpen: () => void;
}) {
  const selected =
    value === null
      ? null
      : (choices.options.find((choice) => choice.id === value) ?? {
          id: value,
          label: fallbackLabel(value) ?? (choices.loading ? 'Loading…' : `${label} #${value}`),
        });
  return (
    <Autocomplete
      size="small"
      options={choices.options}
      value={selected}
      onChange={(_, choice) => onChange(choice?.id ?? null)}
      onOpen={onOpen}
      isOptionEqualToValue={(option, current) => option.id === current.id}
      getOptionLabel={(choice) => choice.label}
      getOptionKey={(choice) => choice.id}
      filterOptions={filterChoices}
      loading={choices.loading}
      noOptionsText={choices.error ?? 'No matches'}
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

interface EventsFiltersProps {
  filter: EventsFilter;
  onChange: (changes: Partial<EventsFilter>) => void;
  projects: EventsChoices;
  people: EventsChoices;
  /** Names for ids not (yet) among the options, e.g. read from the events shown. */
  names: { project: string | null; actor: string | null };
  /** A chooser was opened: its list is needed. */
  onChoicesWanted: () => void;
}

/** The timeline's filters: one project, one person (each typed to narrow), and CLEAR FILTERS. */
export function EventsFilters({
  filter,
  onChange,
  projects,
  people,
  names,
  onChoicesWanted,
}: EventsFiltersProps) {
  const anySet = filter.project !== null || filter.actor !== null;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr)) auto' },
        gap: 1.5,
        alignItems: 'center',
        mb: 3,
      }}
    >
      <Chooser
        label="Project"
        value={filter.project}
        choices={projects}
        fallbackLabel={() => names.project}
        onChange={(project) => onChange({ project })}
        onOpen={onChoicesWanted}
      />
      <Chooser
        label="Person"
        value={filter.actor}
        choices={people}
        fallbackLabel={() => names.actor}
        onChange={(actor) => onChange({ actor })}
        onOpen={onChoicesWanted}
      />
      <Box
        sx={{
          justifySelf: { xs: 'start', sm: 'end' },
          minWidth: 120,
          display: { xs: anySet ? 'block' : 'none', sm: 'block' },
        }}
      >
        {anySet ? (
          <Button size="small" onClick={() => onChange({ project: null, actor: null })}>
            Clear filters
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}
