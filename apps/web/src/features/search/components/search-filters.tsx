import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { photoFilterDefaults, readDay, type SearchFilters } from '../search-params';

/** A project or a member to filter by. */
export interface FilterChoice {
  id: number;
  label: string;
}

/** The choices of one chooser, as its query has them so far. */
export interface FilterChoices {
  options: readonly FilterChoice[];
  loading: boolean;
  /** Said in the chooser when its list could not be loaded. */
  error?: string;
}

interface SearchFiltersProps {
  filters: SearchFilters;
  onChange: (changes: Partial<SearchFilters>) => void;
  projects: FilterChoices;
  people: FilterChoices;
  /**
   * The project, author and date filters: photos or reports are among the results shown.
   */
  showPhotoFilters: boolean;
  /** Which time of a photo the dates apply to: photos are among the results shown. */
  showDateBasis?: boolean;
  /** Reports are among the results shown: the dates are said to be the day a report was made. */
  showReportDates?: boolean;
  /** A chooser was opened: its list is needed. */
  onChoicesWanted: () => void;
}

/** A long list (10,000 projects) shows the first matches only, as the user narrows it. */
const filterChoices = createFilterOptions<FilterChoice>({ limit: 50 });

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
  choices: FilterChoices;
  /** The name shown for a chosen id that is not (yet) among the options. */
  fallbackLabel: (id: number) => string;
  onChange: (id: number | null) => void;
  onOpen: () => void;
}) {
  const selected =
    value === null
      ? null
      : (choices.options.find((choice) => choice.id === value) ?? {
          id: value,
          label: choices.loading ? 'Loading…' : fallbackLabel(value),
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

/** How long a date typed by hand (day, month, then the year digit by digit) settles first. */
const DAY_WRITE_DELAY_MS = 600;

/**
 * A day, written to the address once it has stopped changing (a date typed by hand goes
 * through several valid dates on the way) or when the field is left.
 */
function DayField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | null;
  min?: string;
  max?: string;
  onChange: (day: string | null) => void;
}) {
  const [text, setText] = useState(value ?? '');
  const [seen, setSeen] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  // The address changed from elsewhere (Back, Clear filters): the field follows it.
  if (value !== seen) {
    setSeen(value);
    setText(value ?? '');
  }
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const write = (next: string) => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const day = next === '' ? null : readDay(next);
    if (next !== '' && day === null) return;
    if (day !== value) onChange(day);
  };
  return (
    <TextField
      size="small"
      type="date"
      label={label}
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => write(next), DAY_WRITE_DELAY_MS);
      }}
      onBlur={() => {
        if (timer.current !== undefined) write(text);
      }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { min, max } }}
    />
  );
}

/**
 * The search page's filters: for photos and reports the project, the author and a date range
 * (a photo's upload or capture time, the day a report was made); for projects, photos and
 * reports, whether archived projects are included. Each change is the caller's to write (the
 * page keeps them in its address).
 */
export function SearchFiltersPanel({
  filters,
  onChange,
  projects,
  people,
  showPhotoFilters,
  showDateBasis = showPhotoFilters,
  showReportDates = false,
  onChoicesWanted,
}: SearchFiltersProps) {
  const byLabelId = useId();
  const anySet =
    filters.project !== null ||
    filters.author !== null ||
    filters.from !== null ||
    filters.to !== null ||
    filters.by !== photoFilterDefaults.by ||
    filters.archived;
  return (
    <Stack spacing={1.5}>
      {showPhotoFilters ? (
        <>
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: {
                xs: 'minmax(0, 1fr)',
                sm: 'repeat(2, minmax(0, 1fr))',
                lg: 'repeat(4, minmax(0, 1fr))',
              },
              gap: 1.5,
            }}
          >
            <Chooser
              label="Project"
              value={filters.project}
              choices={projects}
              fallbackLabel={(id) => `Project #${id}`}
              onChange={(project) => onChange({ project })}
              onOpen={onChoicesWanted}
            />
            <Chooser
              label="Author"
              value={filters.author}
              choices={people}
              fallbackLabel={(id) => `Member #${id}`}
              onChange={(author) => onChange({ author })}
              onOpen={onChoicesWanted}
            />
            <DayField
              label="From"
              value={filters.from}
              max={filters.to ?? undefined}
              onChange={(from) => onChange({ from })}
            />
            <DayField
              label="To"
              value={filters.to}
              min={filters.from ?? undefined}
              onChange={(to) => onChange({ to })}
            />
          </Box>
          {showDateBasis ? (
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Typography id={byLabelId} variant="body2" color="text.secondary">
                {showReportDates ? 'Photo dates are' : 'Dates are'}
              </Typography>
              <ToggleButtonGroup
                exclusive
                size="small"
                aria-labelledby={byLabelId}
                value={filters.by}
                onChange={(_, by: SearchFilters['by'] | null) => {
                  if (by) onChange({ by });
                }}
              >
                <ToggleButton value="uploaded">Upload time</ToggleButton>
                <ToggleButton value="captured">Capture time</ToggleButton>
              </ToggleButtonGroup>
            </Stack>
          ) : null}
          {showReportDates ? (
            <Typography variant="body2" color="text.secondary">
              A report’s date is the day it was made.
            </Typography>
          ) : null}
        </>
      ) : null}
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
      >
        <FormControlLabel
          control={
            <Switch
              checked={filters.archived}
              onChange={(event) => onChange({ archived: event.target.checked })}
            />
          }
          label="Include archived projects"
        />
        {anySet ? (
          <Button size="small" onClick={() => onChange({ ...photoFilterDefaults })}>
            Clear filters
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
