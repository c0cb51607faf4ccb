import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { normalizeTag, tagLimits, tagSchema } from '@sitelog/shared';
import { useState } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useTagSuggestions } from '../api/get-tag-suggestions';

const SUGGEST_DELAY_MS = 250;
/** From this many tags on, the field counts them against the limit. */
const COUNT_FROM = tagLimits.perUpload - 5;

const photoCount = (count: number) => (count === 1 ? '1 photo' : `${count} photos`);

export const TAG_LIMIT_MESSAGE = `A photo can have at most ${tagLimits.perUpload} tags.`;

/**
 * Adds tags typed as `texts` to `tags`: each normalised as the server stores it ("Level  3 " is
 * "level 3"); one already there merges into it; blanks are skipped. Stops at the first text that
 * cannot be a tag (too long, a control character) or that would pass the limit, and says why.
 */
export function addTags(
  tags: readonly string[],
  texts: readonly string[],
): { tags: string[]; error: string | null; merged: string | null } {
  const next = [...tags];
  let merged: string | null = null;
  for (const text of texts) {
    if (normalizeTag(text) === '') continue;
    const parsed = tagSchema.safeParse(text);
    if (!parsed.success)
      return { tags: next, error: parsed.error.issues[0]?.message ?? 'Not a tag.', merged };
    if (next.includes(parsed.data)) {
      merged = parsed.data;
      continue;
    }
    if (next.length >= tagLimits.perUpload) return { tags: next, error: TAG_LIMIT_MESSAGE, merged };
    next.push(parsed.data);
  }
  return { tags: next, error: null, merged };
}

interface TagInputProps {
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** The field's label (several on one page each name their photo). */
  label?: string;
  disabled?: boolean;
  size?: 'small' | 'medium';
  autoFocus?: boolean;
  /**
   * Suggestions drawn inside the field's own container rather than over the page: for a field in
   * a layer above the page's dialogs (the photo viewer), which would hide them.
   */
  disablePortal?: boolean;
}

/**
 * A photo's tags as chips, typed freely: Enter or a comma adds what was typed (leaving the field
 * too), Backspace removes the last chip. Suggestions are the workspace's existing tags starting
 * with what was typed, most used first, asked for once typing pauses. Tags are shown as they will
 * be stored (normalised), duplicates merge, and a tag that cannot be stored is refused with the
 * reason before anything is sent.
 */
export function TagInput({
  value,
  onChange,
  label = 'Tags',
  disabled = false,
  size = 'medium',
  autoFocus = false,
  disablePortal = false,
}: TagInputProps) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const typed = normalizeTag(input);
  const query = useDebouncedValue(typed, SUGGEST_DELAY_MS, '');
  const suggestions = useTagSuggestions(query, { enabled: open && !disabled });
  const counts = new Map((suggestions.data ?? []).map((s) => [s.tag, s.count]));
  // The answer may be for an earlier prefix while typing goes on: only what still fits shows.
  const options = [...counts.keys()].filter((tag) => tag.startsWith(typed) && !value.includes(tag));
  const full = value.length >= tagLimits.perUpload;

  const add = (texts: readonly string[]) => {
    const result = addTags(value, texts);
    if (result.error) setMessage({ text: result.error, error: true });
    else if (result.merged)
      setMessage({ text: `“${result.merged}” is already a tag of this photo.`, error: false });
    else setMessage(null);
    if (result.tags.length !== value.length) onChange(result.tags);
    return result.error === null;
  };

  const helperText =
    message?.text ??
    (full
      ? `${value.length} of ${tagLimits.perUpload} tags: remove one to add another.`
      : value.length >= COUNT_FROM
        ? `${value.length} of ${tagLimits.perUpload} tags. Enter or a comma adds a tag.`
        : 'Trade, area or issue, e.g. electrical, level 3, defect. Enter or a comma adds a tag.');

  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      disabled={disabled}
      disablePortal={disablePortal}
      size={size}
      options={options}
      value={[...value]}
      inputValue={input}
      open={open && options.length > 0}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      // The server matched the prefix; the list above keeps what still fits.
      filterOptions={(all) => all}
      filterSelectedOptions
      autoHighlight={false}
      onInputChange={(_event, next, reason) => {
        // Picking or creating a tag clears the text only once it is added (see `add`); a tag
        // refused keeps its text to be fixed.
        if (reason === 'clear') setInput('');
        if (reason !== 'input') return;
        if (!next.includes(',')) {
          setInput(next);
          if (message && !message.error) setMessage(null);
          return;
        }
        // "a, b, c": every part before the last comma is a tag; the rest stays typed.
        const parts = next.split(',');
        const rest = parts.pop() ?? '';
        if (add(parts)) setInput(rest.trimStart());
        else setInput(parts.join(','));
      }}
      onChange={(_event, next, reason) => {
        if (reason === 'createOption' || reason === 'selectOption') {
          // The new one is last (as typed, or picked); the others are the current tags.
          const added = next.slice(value.length);
          if (add(added)) setInput('');
          return;
        }
        setMessage(null);
        onChange(next.map(normalizeTag));
      }}
      onBlur={() => {
        // What was typed without Enter is kept, not lost when the form is saved.
        if (typed !== '' && add([input])) setInput('');
      }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ gap: 1, justifyContent: 'space-between' }}>
          <span>{option}</span>{' '}
          <Typography variant="caption" color="text.secondary">
            {photoCount(counts.get(option) ?? 0)}
          </Typography>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          autoFocus={autoFocus}
          error={message?.error === true}
          helperText={helperText}
        />
      )}
    />
  );
}
