import EditOutlined from '@mui/icons-material/EditOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { Project } from '@sitelog/shared';
import { useCallback, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { CollapsibleText } from '@/components/collapsible-text';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { TileGridSkeleton } from '@/components/skeletons';
import { NotFoundState } from '@/components/not-found-state';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-client';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useRouteId } from '@/lib/use-route-id';
import { afterProjectArchive, afterProjectEdit, afterReportChange } from '../invalidations';
import { useProject } from '@/features/projects/api/get-project';
import { canArchiveProject, isArchived } from '@/features/projects/can-archive-project';
import {
  ArchiveProjectButton,
  RestoreProjectButton,
} from '@/features/projects/components/archive-project-buttons';
import { ArchivedBanner } from '@/features/projects/components/archived-banner';
import { EditProjectDialog } from '@/features/projects/components/edit-project-dialog';
import { formatDate } from '@/lib/format-date';
import { ProjectMarkButtons } from '@/features/projects/components/project-mark-buttons';
import { ProjectMapSection } from '@/features/maps/components/project-map-section';
import { ProjectReports } from '@/features/reports/components/project-reports';
import {
  ProjectMuteButton,
  ProjectNotifyHint,
} from '@/features/notifications/components/project-mute-button';
import { ProjectUploadsSection } from '@/features/uploads/components/project-uploads-section';
import { PROJECT_TAG_PARAM } from '@/features/uploads/tag-paths';

function ProjectNotFound() {
  return (
    <NotFoundState
      title="Project not found"
      message="There is no project at this address."
      description="It may have been removed, or the link may be mistyped."
      to={paths.allProjects}
      actionLabel="All projects"
      icon={<SearchOffOutlined />}
    />
  );
}

function ProjectPageSkeleton() {
  useDocumentTitle('Project');
  return (
    <OfflineFallback>
      <Box role="status" aria-label="Loading project…">
        <Skeleton variant="text" sx={{ fontSize: '1.75rem', width: '60%' }} />
        <Skeleton variant="text" sx={{ width: '40%', mb: 3 }} />
        <TileGridSkeleton count={6} aspectRatio="1 / 1" />
      </Box>
    </OfflineFallback>
  );
}

/**
 * Where focus goes after this page archived or restored the project: the button pressed is gone
 * (the other one takes its place), so focus moves to the banner that says what happened, or to
 * ARCHIVE PROJECT again. The answer may re-render the page before or after `onDone` runs, so the
 * element is focused now if it is there, else as it mounts (a callback ref).
 */
function useFocusAfterArchive() {
  const wanted = useRef<'banner' | 'actions' | null>(null);
  const banner = useRef<HTMLElement | null>(null);
  const actions = useRef<HTMLElement | null>(null);
  const focusBanner = (element: HTMLElement) => element.focus();
  const focusActions = (element: HTMLElement) =>
    element.querySelector<HTMLElement>('button')?.focus();
  const bannerRef = useCallback((element: HTMLDivElement | null) => {
    banner.current = element;
    if (element && wanted.current === 'banner') {
      wanted.current = null;
      focusBanner(element);
    }
  }, []);
  const actionsRef = useCallback((element: HTMLSpanElement | null) => {
    actions.current = element;
    if (element && wanted.current === 'actions') {
      wanted.current = null;
      focusActions(element);
    }
  }, []);
  const afterArchive = () => {
    if (banner.current) focusBanner(banner.current);
    else wanted.current = 'banner';
  };
  const afterRestore = () => {
    if (actions.current) focusActions(actions.current);
    else wanted.current = 'actions';
  };
  return { bannerRef, actionsRef, afterArchive, afterRestore };
}

function ProjectView({ project }: { project: Project }) {
  useDocumentTitle(project.name);
  const user = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const [markError, setMarkError] = useState<unknown>(null);
  const archived = isArchived(project);
  const isCreator = project.creator.id === user.id;
  const mayArchive = canArchiveProject(user, project);
  const creatorName = `${project.creator.firstname} ${project.creator.lastname}`;
  const { bannerRef, actionsRef, afterArchive, afterRestore } = useFocusAfterArchive();
  // The uploads' tag filter lives in the address (`?tag=`), so it survives reload and Back.
  const [searchParams] = useSearchParams();

  return (
    <>
      <PageHeader
        title={project.name}
        subtitle={
          <Stack
            direction="row"
            sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, alignItems: 'center' }}
          >
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <PlaceOutlined aria-hidden sx={{ fontSize: 18 }} />
              <span>{project.location}</span>
            </Stack>
            <span>
              Created by{' '}
              <Link component={RouterLink} to={paths.memberProfile(project.creator.id)}>
                {creatorName}
              </Link>
            </span>
            <span>
              Updated <time dateTime={project.updatedAt}>{formatDate(project.updatedAt)}</time>
            </span>
          </Stack>
        }
        actions={
          archived ? (
            // Read-only: no BOOKMARK, FOLLOW or EDIT (the server refuses them with a 409).
            mayArchive ? (
              <RestoreProjectButton
                project={project}
                variant="contained"
                invalidate={afterProjectArchive()}
                onDone={afterRestore}
              />
            ) : undefined
          ) : (
            <>
              <ProjectMarkButtons project={project} onError={setMarkError} />
              <ProjectMuteButton projectId={project.id} onError={setMarkError} />
              {isCreator ? (
                <Button
                  variant="outlined"
                  startIcon={<EditOutlined />}
                  onClick={() => setEditing(true)}
                >
                  Edit
                </Button>
              ) : null}
              {mayArchive ? (
                <Box component="span" ref={actionsRef} sx={{ display: 'contents' }}>
                  <ArchiveProjectButton
                    project={project}
                    invalidate={afterProjectArchive()}
                    onDone={afterArchive}
                  />
                </Box>
              ) : null}
            </>
          )
        }
      />
      {archived ? (
        <ArchivedBanner ref={bannerRef} project={project} />
      ) : (
        <ProjectNotifyHint projectId={project.id} followed={project.isFollowed} />
      )}
      {markError ? (
        <Alert severity="error" onClose={() => setMarkError(null)} sx={{ mb: 2 }}>
          {errorMessage(markError)}
        </Alert>
      ) : null}
      {project.description ? (
        <CollapsibleText text={project.description} sx={{ mb: 4, maxWidth: '75ch' }} />
      ) : null}
      <ProjectUploadsSection
        projectId={project.id}
        count={project.uploadsCount}
        canAdd={!archived}
        tag={searchParams.get(PROJECT_TAG_PARAM)}
      />
      <ProjectMapSection project={project} />
      <ProjectReports projectId={project.id} archived={archived} invalidate={afterReportChange()} />
      {isCreator && !archived ? (
        <EditProjectDialog
          project={project}
          open={editing}
          onClose={() => setEditing(false)}
          invalidate={afterProjectEdit()}
        />
      ) : null}
    </>
  );
}

function ProjectLoadError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}) {
  useDocumentTitle('Project');
  return (
    <>
      <PageHeader title="Project" />
      <ErrorState
        error={error}
        title="The project could not be loaded"
        onRetry={onRetry}
        retrying={retrying}
      />
    </>
  );
}

function ProjectLoader({ id }: { id: number }) {
  const query = useProject(id);
  if (query.isPending) return <ProjectPageSkeleton />;
  if (query.isError) {
    if (isNotFound(query.error)) return <ProjectNotFound />;
    return (
      <ProjectLoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return <ProjectView project={query.data} />;
}

/**
 * /project/{id}: header, BOOKMARK/FOLLOW, EDIT for the creator, Uploads and Reports (spec §2);
 * ARCHIVE PROJECT for the creator or an admin, and once archived a read-only page with RESTORE
 * (issue 14).
 */
export function ProjectPage() {
  const projectId = useRouteId();
  if (projectId === null) return <ProjectNotFound />;
  // Keyed by id, so moving between projects starts each page afresh.
  return <ProjectLoader key={projectId} id={projectId} />;
}
