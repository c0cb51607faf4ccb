import FolderOutlined from '@mui/icons-material/FolderOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Profile, Project, SearchResponse, Upload } from '@sitelog/shared';
import { useEffect, useMemo, type ReactNode } from 'react';
import { PersonAvatar } from '@/components/person-avatar';
import { errorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOnline } from '@/lib/use-online';
import { useTypeAhead } from '../api/search';
import { isSearchable } from '../search-params';
import { Highlight } from './highlight';

/** How long typing pauses before the dropdown asks. */
export const TYPE_AHEAD_DELAY_MS = 200;

/** What an option opens. */
export type SuggestionTarget =
  | { kind: 'project'; project: Project }
  | { kind: 'upload'; upload: Upload }
  | { kind: 'person'; person: Profile }
  | { kind: 'all'; query: string };

interface SearchSuggestionsProps {
  /** The text typed (trimmed). */
  query: string;
  /** The listbox's id, which the combobox controls; options' ids start with it. */
  listboxId: string;
  /** The option the keyboard (or the pointer) is on. */
  activeId: string | null;
  onActivate: (id: string) => void;
  onChoose: (target: SuggestionTarget) => void;
  /** Whether a list of options is shown (the combobox's aria-expanded). */
  onExpandedChange: (expanded: boolean) => void;
}

/** An option's id: the listbox's, then what it opens. */
export const optionId = (listboxId: string, target: SuggestionTarget) =>
  target.kind === 'all'
    ? `${listboxId}-all`
    : `${listboxId}-${target.kind}-${
        target.kind === 'project'
          ? target.project.id
          : target.kind === 'upload'
            ? target.upload.id
            : target.person.id
      }`;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

interface OptionProps {
  id: string;
  active: boolean;
  leading: ReactNode;
  primary: ReactNode;
  secondary?: ReactNode;
  onActivate: (id: string) => void;
  onChoose: () => void;
}

function Option({ id, active, leading, primary, secondary, onActivate, onChoose }: OptionProps) {
  return (
    <Box
      role="option"
      id={id}
      aria-selected={active}
      onClick={onChoose}
      onMouseMove={() => {
        if (!active) onActivate(id);
      }}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.25,
        px: 1.5,
        py: 0.75,
        minHeight: 48,
        cursor: 'pointer',
        bgcolor: active ? 'action.selected' : undefined,
        // The keyboard's option is outlined as well as tinted, for those who cannot see tints.
        outline: active ? '2px solid' : undefined,
        outlineColor: 'primary.main',
        outlineOffset: -2,
      }}
    >
      {leading}
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
          {primary}
        </Typography>
        {secondary ? (
          <Typography variant="caption" component="p" color="text.secondary" noWrap>
            {secondary}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

function Thumb({ src }: { src: string | undefined }) {
  return (
    <Box
      aria-hidden
      sx={{
        flex: 'none',
        width: 40,
        height: 30,
        borderRadius: 0.5,
        overflow: 'hidden',
        bgcolor: 'action.hover',
        display: 'grid',
        placeItems: 'center',
      }}
    >
      {src ? (
        <Box
          component="img"
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <FolderOutlined sx={{ fontSize: 20, color: 'text.secondary' }} />
      )}
    </Box>
  );
}

function Group({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <Box role="group" aria-labelledby={id}>
      {/* Hidden from the tree (a listbox holds options and groups only); the group's name. */}
      <Typography
        id={id}
        aria-hidden
        variant="overline"
        component="div"
        color="text.secondary"
        sx={{ px: 1.5, pt: 1, lineHeight: 2, fontWeight: 600 }}
      >
        {label}
      </Typography>
      {children}
    </Box>
  );
}

const isEmpty = (data: SearchResponse) =>
  !data.projects?.items.length && !data.uploads?.items.length && !data.people?.items.length;

function Status({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 1.5, py: 1.5, minHeight: 48 }}>
      {busy ? <CircularProgress size={18} aria-hidden /> : null}
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/**
 * The top bar's dropdown (a lazy chunk, fetched when the box is first focused): the first few
 * projects, photos and people matching what is typed, asked once typing pauses, with the words
 * marked, then "See all results". The box (the combobox) keeps the focus and moves through the
 * options with the arrow keys; this draws them and says what the search is doing.
 */
export function SearchSuggestions({
  query,
  listboxId,
  activeId,
  onActivate,
  onChoose,
  onExpandedChange,
}: SearchSuggestionsProps) {
  const debounced = useDebouncedValue(query, TYPE_AHEAD_DELAY_MS);
  const searchable = isSearchable(debounced);
  const result = useTypeAhead(debounced, searchable);
  const online = useOnline();
  const data = result.data;
  const waiting = debounced !== query || result.isPlaceholderData || result.isFetching;
  const showList = data !== undefined && !isEmpty(data) && !result.isError;

  useEffect(() => {
    onExpandedChange(showList);
  }, [showList, onExpandedChange]);
  useEffect(() => () => onExpandedChange(false), [onExpandedChange]);
  // The keyboard's option stays in view in a list taller than the dropdown.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const options = useMemo(() => {
    if (!data || !showList) return null;
    const item = (
      target: SuggestionTarget,
      content: Omit<OptionProps, 'id' | 'active' | 'onActivate' | 'onChoose'>,
    ) => {
      const id = optionId(listboxId, target);
      return (
        <Option
          key={id}
          id={id}
          active={id === activeId}
          onActivate={onActivate}
          onChoose={() => onChoose(target)}
          {...content}
        />
      );
    };
    return (
      <>
        {data.projects?.items.length ? (
          <Group id={`${listboxId}-projects`} label="Projects">
            {data.projects.items.map((project) =>
              item(
                { kind: 'project', project },
                {
                  leading: <Thumb src={project.lastUploads[0]?.previewLink} />,
                  primary: <Highlight text={project.name} query={query} />,
                  secondary: (
                    <>
                      <Highlight text={project.location} query={query} />
                      {project.archivedAt ? ' · Archived' : null}
                    </>
                  ),
                },
              ),
            )}
          </Group>
        ) : null}
        {data.uploads?.items.length ? (
          <Group id={`${listboxId}-uploads`} label="Photos">
            {data.uploads.items.map((upload) =>
              item(
                { kind: 'upload', upload },
                {
                  leading: <Thumb src={upload.previewLink} />,
                  primary: (
                    <Highlight
                      text={upload.name.trim() === '' ? 'Untitled photo' : upload.name}
                      query={query}
                    />
                  ),
                  secondary: (
                    <>
                      <Highlight text={upload.project.name} query={query} /> ·{' '}
                      <Highlight
                        text={`${upload.creator.firstname} ${upload.creator.lastname}`}
                        query={query}
                      />
                    </>
                  ),
                },
              ),
            )}
          </Group>
        ) : null}
        {data.people?.items.length ? (
          <Group id={`${listboxId}-people`} label="People">
            {data.people.items.map((person) =>
              item(
                { kind: 'person', person },
                {
                  leading: <PersonAvatar person={person} size={30} />,
                  primary: (
                    <Highlight text={`${person.firstname} ${person.lastname}`} query={query} />
                  ),
                  secondary: person.isActive
                    ? `${plural(person.projectsCount, 'project')} · ${plural(person.uploadsCount, 'upload')}`
                    : 'Deactivated',
                },
              ),
            )}
          </Group>
        ) : null}
        {item(
          { kind: 'all', query },
          {
            leading: (
              <Box
                aria-hidden
                sx={{ width: 40, display: 'grid', placeItems: 'center', flex: 'none' }}
              >
                <SearchIcon fontSize="small" />
              </Box>
            ),
            primary: <>See all results for “{query}”</>,
          },
        )}
      </>
    );
  }, [data, showList, listboxId, activeId, onActivate, onChoose, query]);

  let status: ReactNode = null;
  if (!online && data === undefined)
    status = <Status>You are offline: search needs a connection.</Status>;
  else if (result.isError)
    status = waiting ? (
      <Status busy>Searching…</Status>
    ) : (
      <Status>Search failed: {errorMessage(result.error)}</Status>
    );
  else if (data === undefined) status = <Status busy>Searching…</Status>;
  else if (isEmpty(data))
    status = waiting ? (
      <Status busy>Searching…</Status>
    ) : (
      <Status>No matches for “{debounced}”.</Status>
    );

  return (
    <Paper
      elevation={8}
      // Keeps the focus in the box when an option (or the scroll bar) is pressed.
      onMouseDown={(event) => event.preventDefault()}
      sx={{
        position: 'absolute',
        top: 'calc(100% + 4px)',
        left: { xs: 0, md: 'auto' },
        right: 0,
        width: { md: 480 },
        maxHeight: 'min(70vh, 560px)',
        overflowY: 'auto',
        overscrollBehavior: 'contain',
        zIndex: 1,
        textAlign: 'left',
      }}
    >
      <LinearProgress
        aria-hidden
        sx={{ height: 2, visibility: waiting && showList ? 'visible' : 'hidden' }}
      />
      <Box role="status" aria-live="polite">
        {status}
      </Box>
      {options ? (
        <Box role="listbox" id={listboxId} aria-label="Search suggestions" sx={{ pb: 0.5 }}>
          {options}
        </Box>
      ) : null}
    </Paper>
  );
}
