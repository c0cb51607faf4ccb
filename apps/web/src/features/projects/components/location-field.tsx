import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { limits } from '@sitelog/shared';
import { useState } from 'react';
import type { PlaceSuggestion } from '../api/place-suggestion';
import { PLACE_QUERY_MIN, usePlaceSuggestions } from '../api/search-places';
import { useCharacterLimit } from '@/components/character-limit';
import { useDebouncedValue } from '@/lib/use-debounced-value';

export interface LocationValue {
  location: string;
  latitude: number | null;
  longitude: number | null;
}

interface LocationFieldProps {
  value: LocationValue;
  onChange: (value: LocationValue) => void;
  disabled?: boolean;
  required?: boolean;
}

const SEARCH_DELAY_MS = 250;

/**
 * LOCATION with place autocomplete (spec §2, §5): suggestions come from the server's place search
 * as the user pauses typing; picking one stores its label and coordinates. Free text without a
 * pick is kept as typed (then without coordinates).
 */
export function LocationField({
  value,
  onChange,
  disabled = false,
  required = false,
}: LocationFieldProps) {
  const [picked, setPicked] = useState<PlaceSuggestion | null>(null);
  const [resolving, setResolving] = useState(false);
  // A location shown for editing is not a search until the user types in it.
  const [edited, setEdited] = useState(false);
  const typed = value.location;
  const searching = edited && typed.trim().length >= PLACE_QUERY_MIN && picked?.label !== typed;
  const query = useDebouncedValue(searching ? typed : '', SEARCH_DELAY_MS);
  const suggestions = usePlaceSuggestions(query);
  const options = searching ? (suggestions.data ?? []) : [];

  const pick = (place: PlaceSuggestion) => {
    setPicked(place);
    onChange({ location: place.label, latitude: place.latitude, longitude: place.longitude });
    if (place.latitude === null && place.resolveCoordinates) {
      setResolving(true);
      place
        .resolveCoordinates()
        .then((coordinates) => {
          if (coordinates) onChange({ location: place.label, ...coordinates });
        })
        .catch((error: unknown) =>
          console.error('Could not read the coordinates of the picked place.', error),
        )
        .finally(() => setResolving(false));
    }
  };

  let helperText = 'Pick a suggested place, or type an address.';
  if (suggestions.isError && searching)
    helperText = 'Place suggestions are unavailable right now; type the location instead.';
  else if (resolving) helperText = 'Reading the coordinates of the picked place…';
  else if (picked?.label === typed && value.latitude !== null && value.longitude !== null)
    helperText = `Picked place at ${value.latitude.toFixed(4)}, ${value.longitude.toFixed(4)}.`;
  const limit = useCharacterLimit(typed, limits.locationMax, 'Location', helperText);

  return (
    <>
      <Autocomplete<PlaceSuggestion, false, false, true>
        freeSolo
        disabled={disabled}
        options={options}
        value={picked?.label === typed ? picked : null}
        inputValue={typed}
        filterOptions={(all) => all}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.label)}
        isOptionEqualToValue={(option, selected) => option.id === selected.id}
        loading={searching && suggestions.isFetching}
        loadingText="Searching places…"
        onInputChange={(_event, text, reason) => {
          // "reset" is MUI echoing a picked option's label; the pick itself is handled in onChange.
          if (reason === 'reset') return;
          setEdited(true);
          setPicked(null);
          onChange({ location: text, latitude: null, longitude: null });
        }}
        onChange={(_event, selected) => {
          if (selected === null) return;
          if (typeof selected === 'string') {
            setPicked(null);
            onChange({ location: selected, latitude: null, longitude: null });
          } else pick(selected);
        }}
        renderOption={({ key, ...props }, option) => (
          <Box component="li" key={key} {...props} sx={{ gap: 1.5 }}>
            <PlaceOutlined aria-hidden fontSize="small" sx={{ color: 'text.secondary' }} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {option.primary}
              </Typography>
              {option.secondary ? (
                <Typography variant="caption" color="text.secondary">
                  {option.secondary}
                </Typography>
              ) : null}
            </Box>
          </Box>
        )}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Location"
            name="location"
            error={limit.error}
            helperText={limit.helperText}
            slotProps={{
              htmlInput: {
                ...params.inputProps,
                'aria-required': required || undefined,
              },
            }}
          />
        )}
      />
      {limit.status}
    </>
  );
}
