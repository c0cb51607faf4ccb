import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { reportLimits, type Upload } from '@sitelog/shared';
import { memo, useId, useState } from 'react';
import { tileImageLoading, tileImageProps, type TileImageLoading } from '@/components/tile-image';
import { visuallyHidden } from '@/components/visually-hidden';
import { formatTileTime } from '@/lib/format-photo-time';
import { authorName, photoName } from './photo-names';

const ANY = '';

const gridColumns = {
  xs: 'repeat(2, minmax(0, 1fr))',
  sm: 'repeat(3, minmax(0, 1fr))',
  lg: 'repeat(4, minmax(0, 1fr))',
};

/**
 * One of the project's photos, to put in the report or take out: the whole tile is the
 * checkbox's label; once in, it shows its place in the report.
 */
const PickTile = memo(function PickTile({
  photo,
  position,
  disabled,
  loading,
  onToggle,
}: {
  photo: Upload;
  /** Its place in the report (1…), or 0 when it is not in it. */
  position: number;
  disabled: boolean;
  loading: TileImageLoading;
  onToggle: (id: number) => void;
}) {
  const nameId = useId();
  const metaId = useId();
  const chosen = position > 0;
  return (
    <Box
      component="li"
      data-pick-photo={photo.id}
      sx={{
        borderRadius: 1,
        border: '2px solid',
        borderColor: chosen ? 'primary.main' : 'divider',
        bgcolor: 'background.paper',
        overflow: 'hidden',
        opacity: disabled ? 0.6 : 1,
        '&:has(input:focus-visible)': {
          outline: '3px solid',
          outlineColor: 'primary.main',
          outlineOffset: 2,
        },
      }}
    >
      <Box
        component="label"
        sx={{ display: 'block', cursor: disabled ? 'default' : 'pointer', height: '100%' }}
      >
        <Box sx={{ position: 'relative', aspectRatio: '4 / 3', bgcolor: 'action.hover' }}>
          <Box
            component="img"
            src={photo.previewLink}
            alt=""
            {...tileImageProps(loading)}
            decoding="async"
            sx={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
          />
          <Checkbox
            checked={chosen}
            disabled={disabled}
            onChange={() => onToggle(photo.id)}
            size="small"
            slotProps={{
              input: { 'aria-labelledby': nameId, 'aria-describedby': metaId },
            }}
            sx={{
              position: 'absolute',
              top: 4,
              left: 4,
              p: 0.25,
              bgcolor: 'background.paper',
              borderRadius: 1,
              '&:hover': { bgcolor: 'background.paper' },
            }}
          />
          {chosen ? (
            <Box
              aria-hidden
              sx={{
                position: 'absolute',
                top: 6,
                right: 6,
                minWidth: 24,
                height: 24,
                px: 0.75,
                borderRadius: 12,
                bgcolor: 'primary.main',
                color: 'primary.contrastText',
                fontSize: 13,
                fontWeight: 700,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              {position}
            </Box>
          ) : null}
        </Box>
        <Box sx={{ px: 1, py: 0.75, minWidth: 0 }}>
          <Typography id={nameId} variant="body2" noWrap sx={{ fontWeight: 500 }}>
            {photoName(photo)}
          </Typography>
          <Typography id={metaId} variant="caption" color="text.secondary" component="p" noWrap>
            {authorName(photo)} · {formatTileTime(photo.createdAt)}
            {chosen ? (
              <Box component="span" sx={visuallyHidden}>{`, photo ${position} of the report`}</Box>
            ) : null}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
});

/** The authors among `photos`, by name. */
function authorsOf(photos: readonly Upload[]) {
  const byId = new Map(photos.map((p) => [p.creator.id, p.creator]));
  return [...byId.values()].sort((a, b) =>
    `${a.firstname} ${a.lastname}`.localeCompare(`${b.firstname} ${b.lastname}`),
  );
}

/** The tags among `photos`, most used first. */
function tagsOf(photos: readonly Upload[]) {
  const counts = new Map<string, number>();
  for (const photo of photos)
    for (const tag of photo.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export interface PhotoPickerProps {
  /** The project's photos loaded so far, newest upload first. */
  photos: readonly Upload[];
  /** The ids of those uploaded in the report's range. */
  inRange: ReadonlySet<number>;
  /** "uploaded on 26 Nov 2026": the range, as the filter names it. */
  rangeText: string;
  /** The report's photos, in order. */
  selected: readonly number[];
  onToggle: (id: number) => void;
  /** Puts these (not yet in) at the end of the report. */
  onAddAll: (ids: number[]) => void;
  /** Takes these out of the report. */
  onRemoveAll: (ids: number[]) => void;
}

/**
 * The project's photos as a grid of checkboxes, newest first, to add to the report or take out;
 * filtered to the range (or all that are loaded), by tag and by author where photos have them.
 */
export function PhotoPicker({
  photos,
  inRange,
  rangeText,
  selected,
  onToggle,
  onAddAll,
  onRemoveAll,
}: PhotoPickerProps) {
  const [rangeOnly, setRangeOnly] = useState(true);
  const [tag, setTag] = useState(ANY);
  const [author, setAuthor] = useState(ANY);
  const authors = authorsOf(photos);
  const tags = tagsOf(photos);
  const positions = new Map(selected.map((id, index) => [id, index + 1]));
  const full = selected.length >= reportLimits.photosMax;
  const shown = photos.filter(
    (photo) =>
      (!rangeOnly || inRange.has(photo.id)) &&
      (tag === ANY || (photo.tags ?? []).includes(tag)) &&
      (author === ANY || String(photo.creator.id) === author),
  );
  const shownIds = shown.map((photo) => photo.id);
  const shownOut = shownIds.filter((id) => !positions.has(id));
  const shownIn = shownIds.filter((id) => positions.has(id));
  const filtered = tag !== ANY || author !== ANY;

  return (
    <Stack spacing={1.5}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        useFlexGap
        sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      >
        <FormControlLabel
          control={
            <Checkbox
              checked={rangeOnly}
              onChange={(event) => setRangeOnly(event.target.checked)}
            />
          }
          label={`Only photos ${rangeText}`}
          sx={{ mr: 1 }}
        />
        {tags.length > 0 ? (
          <TextField
            select
            size="small"
            label="Tag"
            value={tag}
            onChange={(event) => setTag(event.target.value)}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value={ANY}>Any tag</MenuItem>
            {tags.map(([name, count]) => (
              <MenuItem key={name} value={name}>
                {name} ({count})
              </MenuItem>
            ))}
          </TextField>
        ) : null}
        {authors.length > 1 ? (
          <TextField
            select
            size="small"
            label="Author"
            value={author}
            onChange={(event) => setAuthor(event.target.value)}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value={ANY}>Everyone</MenuItem>
            {authors.map((person) => (
              <MenuItem key={person.id} value={String(person.id)}>
                {person.firstname} {person.lastname}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
      </Stack>

      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ flex: 1 }}>
          {shown.length} {shown.length === 1 ? 'photo' : 'photos'} shown, {shownIn.length} of them
          in the report
        </Typography>
        <Button
          size="small"
          disabled={shownOut.length === 0 || full}
          onClick={() => onAddAll(shownOut)}
        >
          Add all shown
        </Button>
        <Button size="small" disabled={shownIn.length === 0} onClick={() => onRemoveAll(shownIn)}>
          Remove all shown
        </Button>
      </Stack>

      {shown.length === 0 ? (
        <Box sx={{ py: 2, textAlign: 'center' }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {filtered
              ? 'No photo loaded matches these filters.'
              : rangeOnly
                ? 'Nothing to show for these days.'
                : 'The project has no photos yet.'}
          </Typography>
          {rangeOnly && photos.length > 0 ? (
            <Button variant="outlined" size="small" onClick={() => setRangeOnly(false)}>
              Show all photos
            </Button>
          ) : filtered ? (
            <Button
              variant="outlined"
              size="small"
              onClick={() => {
                setTag(ANY);
                setAuthor(ANY);
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </Box>
      ) : (
        <Box
          component="ul"
          aria-label="The project’s photos"
          sx={{
            display: 'grid',
            gridTemplateColumns: gridColumns,
            gap: 1,
            listStyle: 'none',
            m: 0,
            p: 0,
          }}
        >
          {shown.map((photo, index) => (
            <PickTile
              key={photo.id}
              photo={photo}
              position={positions.get(photo.id) ?? 0}
              disabled={full && !positions.has(photo.id)}
              loading={tileImageLoading(index)}
              onToggle={onToggle}
            />
          ))}
        </Box>
      )}
      {full ? (
        <Typography variant="body2" color="text.secondary">
          The report holds {reportLimits.photosMax} photos, the most it can: remove one to add
          another.
        </Typography>
      ) : null}
    </Stack>
  );
}
