import AssessmentOutlined from '@mui/icons-material/AssessmentOutlined';
import FolderOutlined from '@mui/icons-material/FolderOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import {
  reportTypeLabels,
  type Profile,
  type Project,
  type Report,
  type SearchResponse,
  type Upload,
} from '@sitelog/shared';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PersonAvatar } from '@/components/person-avatar';
import { errorMessage } from '@/lib/api-client';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useOnline } from '@/lib/use-online';
import { paths } from '@/lib/paths';
import { useTypeAhead } from '../api/search';
import { isSearchable } from '../search-params';
import { Highlight } from './highlight';

/** How long typing pauses before the dropdown asks. */
export const TYPE_AHEAD_DELAY_MS = 200;

/** The dropdown's handling of a key pressed in the box (the box calls it while it is open). */
export type SuggestionKeys = (event: KeyboardEvent<HTMLInputElement>) => void;

/** What an option opens. */
type SuggestionTarget =
  | { kind: 'project'; project: Project }
  | { kind: 'upload'; upload: Upload }
  | { kind: 'person'; person: Profile }
  | { kind: 'report'; report: Report }
  | { kind: 'all'; query: string };

interface SearchSuggestionsProps {
  /** The text typed (trimmed). */
  query: string;
  /** The listbox's id, which the combobox controls; options' ids start with it. */
  listboxId: string;
  /** The option the keyboard (or the pointer) is on (the box's aria-activedescendant). */
  activeId: string | null;
  onActivate: (id: string) => void;
  /** Whether a list of options is shown (the combobox's aria-expanded). */
  onExpandedChange: (expanded: boolean) => void;
  /** Escape: the dropdown closes, the text stays. */
  onDismiss: () => void;
  /** Something was opened: the box clears. */
  onDone: () => void;
  /** Where the box finds this dropdown's key handling. */
  keysRef: RefObject<SuggestionKeys | null>;
  /** The search parameter that opens a photo full screen over the current page. */
  photoParam: string;
}

/** What an option opens: its kind and id (the query for "See all results"). */
function targetKey(target: SuggestionTarget): string {
  switch (target.kind) {
    case 'project':
      return `project-${target.project.id}`;
    case 'upload':
      return `upload-${target.upload.id}`;
    case 'person':
      return `person-${target.person.id}`;
    case 'report':
      return `report-${target.report.id}`;
    case 'all':
      return 'all';
  }
}

/** An option's id: the listbox's, then what it opens. */
export const optionId = (listboxId: string, target: SuggestionTarget) =>
  `${listboxId}-${targetKey(target)}`;

/** Every option of the open dropdown, in order (the arrow keys walk them). */
const optionsOf = (listboxId: string): HTMLElement[] => [
  ...(document.getElementById(listboxId)?.querySelectorAll<HTMLElement>('[role="option"]') ?? []),
];

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

function Thumb({ src, icon }: { src: string | undefined; icon?: ReactNode }) {
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
        (icon ?? <FolderOutlined sx={{ fontSize: 20, color: 'text.secondary' }} />)
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
  !data.projects?.items.length &&
  !data.uploads?.items.length &&
  !data.people?.items.length &&
  !data.reports?.items.length;

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
 * projects, photos, reports and people matching what is typed, asked once typing pauses, with the words
 * marked, then "See all results". The box (the combobox) keeps the focus and moves through the
 * options with the arrow keys; this draws them and says what the search is doing.
 */
export function SearchSuggestions({
  query,
  listboxId,
  activeId,
  onActivate,
  onExpandedChange,
  onDismiss,
  onDone,
  keysRef,
  photoParam,
}: SearchSuggestionsProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const debounced = useDebouncedValue(query, TYPE_AHEAD_DELAY_MS, '');
  const searchable = isSearchable(debounced);
  const result = useTypeAhead(debounced, searchable);
  const online = useOnline();
  const data = result.data;
  const waiting = debounced !== query || result.isPlaceholderData || result.isFetching;
  // Offline with the text changed since the last answer: that answer is another search's.
  const offline = !online && (data === undefined || waiting);
  const showList = data !== undefined && !isEmpty(data) && !result.isError && !offline;

  // The box's aria-expanded follows the list in the same commit (a layout effect): a passive
  // effect left a frame in which the list was shown and the box still said collapsed.
  useLayoutEffect(() => {
    onExpandedChange(showList);
  }, [showList, onExpandedChange]);
  useLayoutEffect(() => () => onExpandedChange(false), [onExpandedChange]);
  const onChoose = useCallback(
    (target: SuggestionTarget) => {
      if (target.kind === 'project') void navigate(paths.project(target.project.id));
      else if (target.kind === 'person') void navigate(paths.memberProfile(target.person.id));
      else if (target.kind === 'report') void navigate(paths.report(target.report.id));
      else if (target.kind === 'all') void navigate(paths.search(target.query));
      else {
        // The photo opens full screen over the current page, as a tile's link does.
        const params = new URLSearchParams(location.search);
        params.set(photoParam, String(target.upload.id));
        void navigate(`${location.pathname}?${params.toString()}`, {
          state: { photoViewer: true },
        });
      }
      onDone();
    },
    [navigate, location, photoParam, onDone],
  );

  // The keys pressed in the box: arrows walk the options (round), Enter opens the highlighted
  // one (with none, the box's form opens the search page), Escape closes.
  useLayoutEffect(() => {
    keysRef.current = (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const options = optionsOf(listboxId);
        if (options.length === 0) return;
        const at = options.findIndex((option) => option.id === activeId);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const next =
          at === -1
            ? step === 1
              ? 0
              : options.length - 1
            : (at + step + options.length) % options.length;
        onActivate(options[next]!.id);
      } else if (event.key === 'Enter') {
        const active = activeId && showList ? document.getElementById(activeId) : null;
        if (active) {
          event.preventDefault();
          active.click();
        }
      } else if (event.key === 'Escape') {
        // Not the search field's own Escape, which would clear the text.
        event.preventDefault();
        onDismiss();
      }
    };
  });
  useEffect(
    () => () => {
      keysRef.current = null;
    },
    [keysRef],
  );

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
        {data.reports?.items.length ? (
          <Group id={`${listboxId}-reports`} label="Reports">
            {data.reports.items.map((report) =>
              item(
                { kind: 'report', report },
                {
                  leading: (
                    <Thumb
                      src={report.thumb?.previewLink}
                      icon={<AssessmentOutlined sx={{ fontSize: 20, color: 'text.secondary' }} />}
                    />
                  ),
                  primary: <Highlight text={report.title} query={query} />,
                  secondary: (
                    <>
                      <Highlight text={reportTypeLabels[report.type]} query={query} /> ·{' '}
                      <Highlight text={report.project.name} query={query} /> ·{' '}
                      <Highlight
                        text={`${report.author.firstname} ${report.author.lastname}`}
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
  if (offline) status = <Status>You are offline: search needs a connection.</Status>;
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
