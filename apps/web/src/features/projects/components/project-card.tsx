import FolderOutlined from '@mui/icons-material/FolderOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Project } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { OfflineFallback } from '@/components/offline-state';
import { OverflowTooltip, overflowText } from '@/components/overflow-tooltip';
import { tileImageLoading, tileImageProps, type TileImageLoading } from '@/components/tile-image';
import { formatRelativeDay } from '@/lib/format-relative-day';
import { paths } from '@/lib/paths';

export const PROJECT_COVER_ASPECT = '4 / 3';

/** The project's cover: its latest photo, else a neutral placeholder with an icon. */
function ProjectCover({ project, loading }: { project: Project; loading: TileImageLoading }) {
  const cover = project.lastUploads[0];
  return (
    <Box
      sx={{
        aspectRatio: PROJECT_COVER_ASPECT,
        bgcolor: 'action.hover',
        overflow: 'hidden',
        display: 'grid',
        placeItems: 'center',
      }}
    >
      {cover ? (
        <Box
          component="img"
          src={cover.previewLink}
          alt=""
          {...tileImageProps(loading)}
          decoding="async"
          sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
        />
      ) : (
        <FolderOutlined aria-hidden sx={{ fontSize: 48, color: 'text.disabled' }} />
      )}
    </Box>
  );
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

const plainText = (text: string): ReactNode => text;

interface ProjectCardOptions {
  /** h2 where the grid sits right under the page title, h3 inside a titled section. */
  headingLevel?: 'h2' | 'h3';
  /** The description too, on up to two lines (search results, where it may be what matched). */
  showDescription?: boolean;
  /** Draws the name, location and description (search results mark the words searched for). */
  renderText?: (text: string) => ReactNode;
}

/**
 * A project tile: cover photo, name (wrapped in full), "Archived" when it is, location (on one
 * line, whole in a tooltip on hover and focus when cut), uploads and last activity; opens the
 * project. It fills its grid cell, so the tiles of a row are one height.
 */
export function ProjectCard({
  project,
  headingLevel = 'h3',
  loading = 'lazy',
  showDescription = false,
  renderText = plainText,
}: ProjectCardOptions & {
  project: Project;
  /** How its cover loads (see tile-image.ts); grids set it by position. */
  loading?: TileImageLoading;
}) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <OverflowTooltip>
        <CardActionArea
          component={RouterLink}
          to={paths.project(project.id)}
          sx={{
            height: '100%',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'stretch',
            justifyContent: 'flex-start',
          }}
        >
          <ProjectCover project={project} loading={loading} />
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Typography
              component={headingLevel}
              variant="subtitle1"
              sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}
            >
              {renderText(project.name)}
            </Typography>
            {project.archivedAt ? <ArchivedChip /> : null}
            <Stack
              direction="row"
              spacing={0.5}
              sx={{ alignItems: 'center', color: 'text.secondary', mt: 0.25, minWidth: 0 }}
            >
              <PlaceOutlined aria-hidden sx={{ fontSize: 16, flexShrink: 0 }} />
              <Typography variant="body2" noWrap {...overflowText}>
                {renderText(project.location)}
              </Typography>
            </Stack>
            {showDescription && project.description.trim() !== '' ? (
              <Typography
                variant="body2"
                color="text.secondary"
                sx={{
                  mt: 0.5,
                  overflowWrap: 'anywhere',
                  display: '-webkit-box',
                  WebkitLineClamp: 2,
                  WebkitBoxOrient: 'vertical',
                  overflow: 'hidden',
                }}
              >
                {renderText(project.description)}
              </Typography>
            ) : null}
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              {plural(project.uploadsCount, 'upload')} · updated{' '}
              {formatRelativeDay(project.updatedAt)}
            </Typography>
          </CardContent>
        </CardActionArea>
      </OverflowTooltip>
    </Card>
  );
}

export const projectGridColumns = 'repeat(auto-fill, minmax(min(100%, 160px), 1fr))';

/** Project tiles in a responsive grid (two columns on a phone). */
export function ProjectGrid({
  projects,
  label,
  ...options
}: ProjectCardOptions & {
  projects: Project[];
  label: string;
}) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gridTemplateColumns: projectGridColumns,
        gap: 1.5,
      }}
    >
      {projects.map((project, i) => (
        <Box component="li" key={project.id} sx={{ minWidth: 0 }}>
          <ProjectCard project={project} loading={tileImageLoading(i)} {...options} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * Placeholder project tiles while the list loads, laid out as ProjectCard (cover, a name on two
 * lines as most names wrap at tile width, location, counts), so the grid keeps its height when
 * the projects arrive and the sections below it do not move.
 */
export function ProjectGridSkeleton({ count, label }: { count: number; label: string }) {
  return (
    <OfflineFallback>
      <Box
        role="status"
        aria-label={label}
        sx={{ display: 'grid', gridTemplateColumns: projectGridColumns, gap: 1.5 }}
      >
        {Array.from({ length: count }, (_, i) => (
          <Card key={i} variant="outlined">
            <Skeleton
              variant="rectangular"
              sx={{ width: '100%', height: 'auto', aspectRatio: PROJECT_COVER_ASPECT }}
            />
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Typography variant="subtitle1" sx={{ lineHeight: 1.3 }}>
                <Skeleton />
                <Skeleton sx={{ width: '60%' }} />
              </Typography>
              <Typography variant="body2" sx={{ mt: 0.25 }}>
                <Skeleton sx={{ width: '70%' }} />
              </Typography>
              <Typography variant="caption" component="p" sx={{ mt: 0.5 }}>
                <Skeleton sx={{ width: '80%' }} />
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </OfflineFallback>
  );
}
