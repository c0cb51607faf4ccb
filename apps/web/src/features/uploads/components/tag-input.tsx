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
 * cannot be a tag (too long, a control character) or that would pass the limit, and says why;
 * `stoppedAt` is that text's index (null when every text was taken).
 */
export function addTags(
  tags: readonly string[],
  texts: readonly string[],
): { tags: string[]; error: string | null; merged: string | null; stoppedAt: number | null } {
  const next = [...tags];
  let merged: string | null = null;
  for (const [index, text] of texts.entries()) {
    if (normalizeTag(text) === '') continue;
    const parsed = tagSchema.safeParse(text);
    if (!parsed.success) {
      const error = parsed.error.issues[0]?.message ?? 'Not a tag.';
      return { tags: next, error, merged, stoppedAt: index };
    }
    if (next.includes(parsed.data)) {
      merged = parsed.data;
      continue;
    }
    if (next.length >= tagLimits.perUpload)
      return { tags: next, error: TAG_LIMIT_MESSAGE, merged, stoppedAt: index };
    next.push(parsed.data);
  }
  return { tags: next, error: null, merged, stoppedAt: null };
}

/**
 * What the field holds after `texts` (its text cut at commas) were offered as tags: nothing when
 * all were taken, else the refused one and those after it, to be fixed (the ones before it are
 * tags now, and are not typed twice).
 */
const leftTyped = (texts: readonly string[], stoppedAt: number | null): string =>
  stoppedAt === null ? '' : texts.slice(stoppedAt).join(',').trimStart();

/** Says that the tag field holds text that is not a tag, for a form that would save without it. */
export const pendingTagMessage = (text: string) =>
  `“${text.trim()}” in the tag field is not a tag yet: fix it or clear it before saving.`;

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
  /**
   * Told the text typed in the field that is not a tag (yet), '' when there is none: text refused
   * (its reason is shown under the field), or not yet added. A form saving the tags waits while
   * there is any, rather than saving without it. (Leaving the field adds what can be a tag.)
   */
  onPendingChange?: (text: string) => void;
}

/**
 * A photo's tags as chips, typed freely: Enter or a comma adds what was typed (leaving the field
 * too; text with commas is a tag between each two), Backspace removes the last chip. Suggestions are the workspace's existing tags starting
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
  onPendingChange,
}: TagInputProps) {
  const [input, setInput] = useState('');
  const type = (text: string) => {
    setInput(text);
    onPendingChange?.(normalizeTag(text) === '' ? '' : text);
  };
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const typed = normalizeTag(input);
  const query = useDebouncedValue(typed, SUGGEST_DELAY_MS, '');
  const suggestions = useTagSuggestions(query, { enabled: open && !disabled });
  const counts = new Map((suggestions.data ?? []).map((s) => [s.tag, s.count]));
  // The answer may be for an earlier prefix while typing goes on: only what still fits shows.
  const options = [...counts.keys()].filter((tag) => tag.startsWith(typed) && !value.includes(tag));
  const full = value.length >= tagLimits.perUpload;

  /** Adds `texts` as tags, saying why one was refused; answers the refused one's index. */
  const add = (texts: readonly string[]) => {
    const result = addTags(value, texts);
    if (result.error) setMessage({ text: result.error, error: true });
    else if (result.merged)
      setMessage({ text: `“${result.merged}” is already a tag of this photo.`, error: false });
    else setMessage(null);
    if (result.tags.length !== value.length) onChange(result.tags);
    return result.stoppedAt;
  };
  /**
   * Adds typed text as tags, a tag between each two commas (Enter, leaving the field): a comma
   * never ends up inside a tag by accident. What was refused stays typed.
   */
  const commit = (text: string) => {
    const texts = text.split(',');
    type(leftTyped(texts, add(texts)));
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
        if (reason === 'clear') type('');
        if (reason !== 'input') return;
        if (!next.includes(',')) {
          type(next);
          if (message && !message.error) setMessage(null);
          return;
        }
        // "a, b, c": every part before the last comma is a tag; the rest stays typed (after a
        // part refused, from that part on).
        const parts = next.split(',');
        const rest = parts.pop() ?? '';
        const stoppedAt = add(parts);
        type(stoppedAt === null ? rest.trimStart() : leftTyped([...parts, rest], stoppedAt));
      }}
      onChange={(_event, next, reason) => {
        if (reason === 'createOption') {
          // Enter: what was typed is last; the others are the current tags.
          commit(next.slice(value.length).join(','));
          return;
        }
        if (reason === 'selectOption') {
          // A suggestion is an existing tag, taken whole.
          if (add(next.slice(value.length)) === null) type('');
          return;
        }
        setMessage(null);
        onChange(next.map(normalizeTag));
      }}
      onBlur={() => {
        // What was typed without Enter is kept, not lost when the form is saved.
        if (typed !== '') commit(input);
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
