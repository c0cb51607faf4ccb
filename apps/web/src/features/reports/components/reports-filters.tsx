import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { reportTypeLabels, reportTypes, type ReportType } from '@sitelog/shared';
import type { ReportsFilter } from '../api/get-reports';
import type { ReportsFilterChange } from '../reports-params';

/** A project or a member to filter by. */
export interface ReportsChoice {
  id: number;
  label: string;
}

/** The choices of one chooser, as its query has them so far. */
export interface ReportsChoices {
  options: readonly ReportsChoice[];
  loading: boolean;
  /** Said in the chooser when its list could not be loaded. */
  error?: string;
}

/** A long list (thousands of projects) shows the first matches only, as the user narrows it. */
const filterChoices = createFilterOptions<ReportsChoice>({ limit: 50 });

function Chooser({
  label,
  value,
  choices,
  fallbackLabel,
  onChange,
  onOpen,
}: {
  label: string;
  value: number | undefined;
  choices: ReportsChoices;
  /** How the chosen id reads while it is not among the options: its name if known. */
  fallbackLabel: string | null;
  onChange: (id: number | null) => void;
  onOpen: () => void;
}) {
  const selected =
    value === undefined
      ? null
      : (choices.options.find((choice) => choice.id === value) ?? {
          id: value,
          label: fallbackLabel ?? (choices.loading ? 'Loading…' : `${label} #${value}`),
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

interface ReportsFiltersProps {
  filter: ReportsFilter;
  onChange: (changes: ReportsFilterChange) => void;
  projects: ReportsChoices;
  /** The team; the signed-in member first, as "Me". */
  people: ReportsChoices;
  /** Names for ids not (yet) among the options, e.g. read from the reports shown. */
  names: { project: string | null; author: string | null };
  /** A chooser was opened: its list is needed. */
  onChoicesWanted: () => void;
}

/**
 * The reports' filters, kept in the address by the page: one project and one author (each typed
 * to narrow), a type, and CLEAR FILTERS.
 */
export function ReportsFilters({
  filter,
  onChange,
  projects,
  people,
  names,
  onChoicesWanted,
}: ReportsFiltersProps) {
  const anySet =
    filter.project !== undefined || filter.type !== undefined || filter.author !== undefined;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          sm: 'repeat(2, minmax(0, 1fr))',
          md: 'minmax(0, 1.4fr) minmax(0, 1fr) minmax(0, 1fr) auto',
        },
        gap: 1.5,
        alignItems: 'center',
        mb: 3,
      }}
    >
      <Chooser
        label="Project"
        value={filter.project}
        choices={projects}
        fallbackLabel={names.project}
        onChange={(project) => onChange({ project })}
        onOpen={onChoicesWanted}
      />
      <TextField
        select
        size="small"
        label="Type"
        value={filter.type ?? ''}
        onChange={(event) =>
          onChange({ type: event.target.value === '' ? null : (event.target.value as ReportType) })
        }
      >
        <MenuItem value="">Any type</MenuItem>
        {reportTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {reportTypeLabels[type]}
          </MenuItem>
        ))}
      </TextField>
      <Chooser
        label="Author"
        value={filter.author}
        choices={people}
        fallbackLabel={names.author}
        onChange={(author) => onChange({ author })}
        onOpen={onChoicesWanted}
      />
      <Box
        sx={{
          justifySelf: { xs: 'start', md: 'end' },
          minWidth: { md: 120 },
          display: { xs: anySet ? 'block' : 'none', md: 'block' },
        }}
      >
        {anySet ? (
          <Button
            size="small"
            onClick={() => onChange({ project: null, type: null, author: null })}
          >
            Clear filters
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}
