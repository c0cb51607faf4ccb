import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { MentionCandidate as PersonRef } from '@sitelog/shared';
import {
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type SyntheticEvent,
} from 'react';
import { PersonAvatar } from '@/components/person-avatar';
import { visuallyHidden } from '@/components/visually-hidden';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMentionable } from '../api/get-mentionable';
import { completes, insertMention, mentionQueryAt } from '../mention-query';

/** How long typing after an `@` pauses before the members are asked for. */
export const MENTION_LOOKUP_DELAY_MS = 150;

interface MentionFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Ctrl+Enter (⌘+Enter on a Mac): send or save. */
  onSubmit: () => void;
  /** Escape while no list is open (an edit's cancel). */
  onEscape?: () => void;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
  minRows?: number;
  /** The field itself (to focus it from outside). */
  inputRef?: Ref<HTMLTextAreaElement>;
  /** A member was chosen from the list (their `@Name` is in the text now). */
  onPick?: (person: PersonRef) => void;
}

const fullName = (person: PersonRef) => `${person.firstname} ${person.lastname}`;

/**
 * A multi-line comment field that completes `@` mentions: typing `@` and the start of a name
 * lists the members it may name (from the server, accents and case ignored). The field is an ARIA
 * combobox over that listbox: ↑/↓ move through it (the field keeps focus; the option is its
 * active descendant), Enter or Tab insert `@Firstname Lastname `, Escape closes it and leaves the
 * text as typed. The list never takes a key it is not open for: Enter is a new line otherwise.
 */
export function MentionField({
  label,
  value,
  onChange,
  onSubmit,
  onEscape,
  error = false,
  helperText,
  disabled = false,
  autoFocus = false,
  placeholder,
  minRows = 3,
  inputRef,
  onPick,
}: MentionFieldProps) {
  const listboxId = useId();
  const fieldRef = useRef<HTMLTextAreaElement | null>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  /** The `@` whose list Escape closed: it stays closed until the caret leaves that mention. */
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  /** The option the keyboard is on, for the answer to one query (a new answer starts at 0). */
  const [active, setActive] = useState({ query: '', index: 0 });
  /** Where the caret goes once the value that an insert made has rendered. */
  const pendingCaret = useRef<number | null>(null);

  const mention = focused && caret !== null ? mentionQueryAt(value, caret) : null;
  const typing = mention !== null && mention.start !== dismissedAt ? mention : null;
  const query = useDebouncedValue(typing?.query ?? '', MENTION_LOOKUP_DELAY_MS, '');
  const lookup = useMentionable(query, typing !== null && query !== '');
  // Only members that fit what is typed now: the answer may be for an earlier query.
  const options =
    typing !== null && query !== '' && !lookup.isError
      ? (lookup.data ?? []).filter((person) => completes(person, typing.query))
      : [];
  const open = options.length > 0;
  const activeIndex =
    active.query === query ? Math.min(active.index, Math.max(options.length - 1, 0)) : 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  // Drawn before any handle is read: the field is there whenever the caller focuses it.
  useImperativeHandle(inputRef, () => fieldRef.current as HTMLTextAreaElement, []);
  // The caret goes after an inserted name once the field shows it.
  useLayoutEffect(() => {
    const field = fieldRef.current;
    if (pendingCaret.current === null || !field) return;
    field.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [value]);

  /** The caret moved (or the text changed) to `at` in `text`. */
  const moveCaret = (text: string, at: number) => {
    setCaret(at);
    // Leaving the dismissed mention (or starting another) lets the next one open again.
    if (dismissedAt !== null && mentionQueryAt(text, at)?.start !== dismissedAt)
      setDismissedAt(null);
  };
  const readCaret = (event: SyntheticEvent<HTMLTextAreaElement>) =>
    moveCaret(event.currentTarget.value, event.currentTarget.selectionStart);

  const choose = (person: PersonRef) => {
    if (!typing) return;
    const next = insertMention(value, typing, person);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    // The name is complete: what is typed after it is not looked up as more of it.
    setDismissedAt(typing.start);
    onChange(next.text);
    onPick?.(person);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      const move = (by: number) => {
        event.preventDefault();
        setActive({ query, index: (activeIndex + by + options.length) % options.length });
      };
      if (event.key === 'ArrowDown') return move(1);
      if (event.key === 'ArrowUp') return move(-1);
      const plainEnter =
        event.key === 'Enter' && !event.ctrlKey && !event.metaKey && !event.shiftKey;
      if (plainEnter || (event.key === 'Tab' && !event.shiftKey)) {
        const person = options[activeIndex];
        if (person) {
          event.preventDefault();
          choose(person);
        }
        return;
      }
      if (event.key === 'Escape') {
        // Closes the list only: not the dialog or the edit around the field.
        event.preventDefault();
        event.stopPropagation();
        setDismissedAt(typing?.start ?? null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSubmit();
      return;
    }
    if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      onEscape();
    }
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <TextField
        label={label}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          moveCaret(event.target.value, event.target.selectionStart ?? event.target.value.length);
        }}
        multiline
        minRows={minRows}
        maxRows={12}
        fullWidth
        error={error}
        helperText={helperText}
        disabled={disabled}
        autoFocus={autoFocus}
        placeholder={placeholder}
        inputRef={fieldRef}
        slotProps={{
          htmlInput: {
            role: 'combobox',
            'aria-autocomplete': 'list',
            'aria-expanded': open,
            'aria-controls': open ? listboxId : undefined,
            'aria-activedescendant': open ? optionId(activeIndex) : undefined,
            onKeyDown,
            onSelect: readCaret,
            onClick: readCaret,
            onFocus: (event: SyntheticEvent<HTMLTextAreaElement>) => {
              setFocused(true);
              readCaret(event);
            },
            onBlur: () => setFocused(false),
            spellCheck: true,
          },
        }}
      />
      {open ? (
        <Paper
          elevation={8}
          component="ul"
          role="listbox"
          id={listboxId}
          aria-label="Members to mention"
          sx={{
            position: 'absolute',
            zIndex: (theme) => theme.zIndex.modal + 1,
            left: 0,
            right: { xs: 0, sm: 'auto' },
            minWidth: { sm: 280 },
            maxWidth: '100%',
            top: '100%',
            maxHeight: 280,
            overflowY: 'auto',
            listStyle: 'none',
            m: 0,
            p: 0.5,
          }}
        >
          {options.map((person, index) => (
            <Box
              component="li"
              key={person.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === activeIndex}
              // The field keeps focus (and its caret) while an option is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(person)}
              onMouseMove={() => {
                if (index !== activeIndex) setActive({ query, index });
              }}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 1.25,
                px: 1.25,
                minHeight: 44,
                borderRadius: 1,
                cursor: 'pointer',
                bgcolor: index === activeIndex ? 'action.selected' : undefined,
                outline: index === activeIndex ? '2px solid' : undefined,
                outlineColor: 'primary.main',
                outlineOffset: -2,
              }}
            >
              <PersonAvatar person={person} size={28} />
              <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
                {fullName(person)}
              </Typography>
            </Box>
          ))}
        </Paper>
      ) : null}
      <Box component="span" aria-live="polite" sx={visuallyHidden}>
        {open
          ? `${options.length} ${options.length === 1 ? 'member' : 'members'} to mention. Up and down arrows choose, Enter inserts.`
          : ''}
      </Box>
    </Box>
  );
}
