import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { visuallyHidden } from './visually-hidden';

/** The counter shows once the text reaches this share of its limit. */
const COUNTER_FROM = 0.75;
/** Screen readers hear the count when typing pauses, not at every key. */
const ANNOUNCE_DELAY_MS = 800;

const numberFormat = new Intl.NumberFormat();
const plural = (count: number, word: string) =>
  `${numberFormat.format(count)} ${word}${count === 1 ? '' : 's'}`;

/** The length the server checks: it stores the text trimmed. */
export const countedLength = (value: string): number => value.trim().length;

/** Whether the server would refuse `value` for a field of at most `max` characters. */
export const isOverLimit = (value: string, max: number): boolean => countedLength(value) > max;

export interface CharacterLimit {
  /** True past the limit: the field shows as invalid. */
  error: boolean;
  /** The hint, or the field's message past the limit, with "87 / 120" at the end near it. */
  helperText: ReactNode;
  /** A polite live region saying what is left; render it next to the field. */
  status: ReactNode;
}

/**
 * What a text field says about its length limit: nothing until the text nears it, then a
 * counter, and past it the server's own message ("Name must be at most 120 characters.") with
 * the field marked invalid. Fields no longer cut pasted text silently with maxLength; the form
 * refuses to save instead (`isOverLimit`).
 */
export function useCharacterLimit(
  value: string,
  max: number,
  /** The field's name in the message, as the server says it: "Name", "Description". */
  label: string,
  hint?: ReactNode,
): CharacterLimit {
  const length = countedLength(value);
  const near = length >= max * COUNTER_FROM;
  const over = length > max;
  const message = over ? `${label} must be at most ${numberFormat.format(max)} characters.` : hint;
  const spoken = useDebouncedValue(
    !near
      ? ''
      : over
        ? `${plural(length - max, 'character')} too many`
        : `${plural(max - length, 'character')} left`,
    ANNOUNCE_DELAY_MS,
  );
  return {
    error: over,
    helperText: near ? (
      <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
        <span>{message}</span>
        <Box
          component="span"
          data-character-count=""
          sx={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}
        >
          {numberFormat.format(length)} / {numberFormat.format(max)}
        </Box>
      </Box>
    ) : (
      message
    ),
    status: (
      // A live region, not role="status": that role means "something is loading" to the pages'
      // own checks, and the count is no such thing.
      <Box component="span" aria-live="polite" aria-atomic="true" sx={visuallyHidden}>
        {spoken}
      </Box>
    ),
  };
}

type LimitedTextFieldProps = Omit<TextFieldProps, 'value' | 'error'> & {
  value: string;
  max: number;
  /** The field's name in the message past the limit, e.g. "Name". */
  limitLabel: string;
};

/** A controlled TextField with a character limit (see useCharacterLimit). */
export function LimitedTextField({
  value,
  max,
  limitLabel,
  helperText,
  ...props
}: LimitedTextFieldProps) {
  const limit = useCharacterLimit(value, max, limitLabel, helperText);
  return (
    <>
      <TextField {...props} value={value} error={limit.error} helperText={limit.helperText} />
      {limit.status}
    </>
  );
}
