import AddOutlined from '@mui/icons-material/AddOutlined';
import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import ChevronRight from '@mui/icons-material/ChevronRight';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useBookmarkedOrFollowedProjects } from '@/features/projects/api/get-bookmarked-or-followed-projects';
import { useProjectRows } from '@/features/projects/api/get-project-rows';
import { createProjectFilter } from '@/features/projects/project-filter';
import { useRecentProjects } from '@/features/uploads/queue/use-recent-projects';

/** Recent projects on this device shown first. */
const RECENT_SHOWN = 5;
/** The other projects list shows at most this many matches; the search narrows it. */
const OTHER_PROJECTS_SHOWN = 50;
const countFormat = new Intl.NumberFormat();

interface Choice {
  id: number;
  name: string;
  location: string;
}

function ChoiceList({ choices, label }: { choices: Choice[]; label: string }) {
  return (
    <Paper variant="outlined">
      <List aria-label={label} disablePadding>
        {choices.map((choice, index) => (
          <ListItem key={choice.id} disablePadding divider={index < choices.length - 1}>
            <ListItemButton component={RouterLink} to={paths.uploader(choice.id)}>
              <ListItemText
                primary={choice.name}
                secondary={choice.location}
                slotProps={{
                  primary: { sx: { fontWeight: 500, overflowWrap: 'anywhere' } },
                  secondary: { sx: { overflowWrap: 'anywhere' } },
                }}
              />
              <ChevronRight aria-hidden sx={{ color: 'text.secondary' }} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

/**
 * Projects photographed for on this device: the chooser works without signal too. Once the
 * server's list has loaded, a project it no longer holds (archived or deleted) is left out.
 */
function RecentOnDevice() {
  const user = useCurrentUser();
  const recent = useRecentProjects(user.id);
  const rows = useProjectRows();
  const open = useMemo(() => {
    if (!recent || !rows.data) return recent;
    const listed = new Set(rows.data.map((row) => row.id));
    return recent.filter((project) => listed.has(project.projectId));
  }, [recent, rows.data]);
  if (!open || open.length === 0) return null;
  return (
    <Section title="Recent on this device">
      <ChoiceList
        choices={open.slice(0, RECENT_SHOWN).map((project) => ({
          id: project.projectId,
          name: project.name,
          location: project.location,
        }))}
        label="Recent projects on this device"
      />
    </Section>
  );
}

function MarkedProjects() {
  const marked = useBookmarkedOrFollowedProjects();
  return (
    <Section title="Bookmarked and followed">
      {marked.isPending ? (
        <ListSkeleton rows={3} label="Loading bookmarked and followed projects…" />
      ) : marked.isError ? (
        <ErrorState
          error={marked.error}
          title="Your projects could not be loaded"
          onRetry={() => void marked.refetch()}
          retrying={marked.isFetching}
        />
      ) : marked.data.length === 0 ? (
        <EmptyState
          icon={<BookmarkBorderOutlined />}
          message="No bookmarked or followed projects"
          description="Bookmark or follow the projects you work on to find them first here."
        />
      ) : (
        <ChoiceList choices={marked.data} label="Bookmarked and followed projects" />
      )}
    </Section>
  );
}

function OtherProjects() {
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const rows = useProjectRows();
  const marked = useBookmarkedOrFollowedProjects();
  const markedIds = useMemo(
    () => new Set((marked.data ?? []).map((project) => project.id)),
    [marked.data],
  );
  const others = useMemo(
    () => (rows.data ?? []).filter((row) => !markedIds.has(row.id)),
    [rows.data, markedIds],
  );
  const filterOthers = useMemo(() => createProjectFilter(others), [others]);
  const matches = useMemo(() => filterOthers(deferredSearch), [filterOthers, deferredSearch]);
  const shown = matches.slice(0, OTHER_PROJECTS_SHOWN);

  return (
    <Section title="All other projects">
      <TextField
        label="Search projects"
        type="search"
        size="small"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        sx={{ mb: 1.5, width: { xs: '100%', sm: 360 } }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchOutlined aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      {rows.isPending ? (
        <ListSkeleton rows={5} label="Loading projects…" />
      ) : rows.isError ? (
        <ErrorState
          error={rows.error}
          title="The projects could not be loaded"
          onRetry={() => void rows.refetch()}
          retrying={rows.isFetching}
        />
      ) : shown.length === 0 ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {deferredSearch.trim()
            ? `No projects match “${deferredSearch.trim()}”.`
            : 'There are no other projects.'}
        </Typography>
      ) : (
        <>
          <ChoiceList choices={shown} label="Other projects" />
          {matches.length > shown.length ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} role="status">
              Showing {shown.length} of {countFormat.format(matches.length)} projects. Type in the
              search to narrow the list.
            </Typography>
          ) : null}
        </>
      )}
    </Section>
  );
}

/** /uploader/choose: pick the project to upload to, or create one (spec §2). */
export function UploaderChoosePage() {
  useDocumentTitle('Choose a project');
  return (
    <>
      <PageHeader
        title="Choose a project"
        subtitle="Pick the project the photos belong to."
        actions={
          <Button
            component={RouterLink}
            to={paths.newProject}
            variant="outlined"
            startIcon={<AddOutlined />}
          >
            New project
          </Button>
        }
      />
      <RecentOnDevice />
      <MarkedProjects />
      <OtherProjects />
    </>
  );
}
