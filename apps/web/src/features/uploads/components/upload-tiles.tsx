import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutline';
import type { Upload } from '@sitelog/shared';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import { memo, useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { overflowText, useOverflowTooltip } from '@/components/overflow-tooltip';
import { tileImageLoading, tileImageProps, type TileImageLoading } from '@/components/tile-image';
import { formatExactTime, formatTileTime } from '@/lib/format-photo-time';
import { basisLabel, groupByDay } from '../day-groups';
import { photoHref, usePageWithoutPhoto, type PageWithoutPhoto } from '../viewer/viewer-context';
import { PersonAvatar } from '@/components/person-avatar';

/** Same columns as the shell's TileGridSkeleton, so loading and loaded grids line up. */
export const uploadGridColumns = {
  xs: 'repeat(2, minmax(0, 1fr))',
  sm: 'repeat(3, minmax(0, 1fr))',
  md: 'repeat(4, minmax(0, 1fr))',
  lg: 'repeat(6, minmax(0, 1fr))',
};

/** Every tile's image box has this shape whatever the photo, so the grid never jumps. */
export const UPLOAD_TILE_ASPECT = '4 / 3';

const plainText = (text: string): ReactNode => text;

export const uploadDisplayName = (upload: Pick<Upload, 'name'>) =>
  upload.name.trim() === '' ? 'Untitled photo' : upload.name;

type TileUpload = Pick<
  Upload,
  'id' | 'name' | 'createdAt' | 'capturedAt' | 'previewLink' | 'creator' | 'project'
> &
  Partial<Pick<Upload, 'commentsCount'>>;

const commentCountLabel = (count: number) => `${count} comment${count === 1 ? '' : 's'}`;

/** A speech bubble and the photo's comment count, read as "3 comments"; nothing at none. */
function CommentCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      className="tile-caption tile-secondary tile-comments"
      role="img"
      aria-label={commentCountLabel(count)}
      title={commentCountLabel(count)}
      data-tile-comments={count}
    >
      <ChatBubbleOutline />
      {count > 999 ? '999+' : count}
    </span>
  );
}

/**
 * The styles of a tile, all on its link: its parts are plain elements named by class. A feed
 * draws up to 50 tiles at once, and each MUI `Box` or `Typography` is a styled component that
 * works out its own styles on every render: a tile was 80 React fibers with them, 47 without.
 */
const tileSx = {
  height: '100%',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'stretch',
  justifyContent: 'flex-start',
  '& .tile-picture': {
    display: 'block',
    aspectRatio: UPLOAD_TILE_ASPECT,
    bgcolor: 'action.hover',
    overflow: 'hidden',
  },
  '& .tile-picture > img': {
    display: 'block',
    width: '100%',
    height: '100%',
    objectFit: 'cover',
  },
  '& .tile-text': { display: 'block', px: 1, py: 0.75, minWidth: 0 },
  '& .tile-name': { display: 'block', typography: 'body2', fontWeight: 500 },
  '& .tile-line': { display: 'flex', alignItems: 'center', minWidth: 0 },
  '& .tile-author': { gap: 0.75, mt: 0.25 },
  '& .tile-when': { gap: 1 },
  '& .tile-caption': { typography: 'caption', minWidth: 0 },
  '& .tile-project': { display: 'block' },
  '& .tile-secondary': { color: 'text.secondary' },
  '& .tile-cut': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .tile-grow': { flex: 1 },
  '& .tile-comments': { display: 'inline-flex', alignItems: 'center', gap: 0.25, flex: 'none' },
  '& .tile-comments > svg': { fontSize: 14 },
  '& .tile-exact': { display: 'none' },
  '&:hover .tile-exact, &.Mui-focusVisible .tile-exact': { display: 'inline' },
  '&:hover .tile-relative, &.Mui-focusVisible .tile-relative': { display: 'none' },
} as const;

/**
 * One photo: the small preview, its name, who took it, when it was uploaded ("today, 14:32";
 * hovering or focusing the tile shows the exact time) and, on feeds across projects, the
 * project. It links to the photo full screen on the current page (`?photo=ID`).
 */
export const UploadTile = memo(function UploadTile({
  upload,
  page,
  loading = 'lazy',
  showProject = false,
  onOpen,
  renderText = plainText,
}: {
  upload: TileUpload;
  /** The page the tile is on, without its photo: the tile links to it with `?photo=ID`. */
  page: PageWithoutPhoto;
  loading?: TileImageLoading;
  showProject?: boolean;
  /** Called as the tile's link is followed (to mark the feed the viewer pages through). */
  onOpen?: (id: number) => void;
  /** Draws the name, author and project (search results mark the words searched for). */
  renderText?: (text: string) => ReactNode;
}) {
  const name = uploadDisplayName(upload);
  const creator = `${upload.creator.firstname} ${upload.creator.lastname}`;
  const exact = formatExactTime(upload.createdAt);
  // Name, author and project are cut to one line: whole in a tooltip on hover and focus.
  const tooltip = useOverflowTooltip();
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea
        {...tooltip.anchorProps}
        component={RouterLink}
        to={photoHref(page, upload.id)}
        state={{ photoViewer: true }}
        onClick={() => onOpen?.(upload.id)}
        data-upload-tile={upload.id}
        sx={tileSx}
      >
        <span className="tile-picture">
          <img src={upload.previewLink} alt={name} {...tileImageProps(loading)} decoding="async" />
        </span>
        <span className="tile-text">
          {/* The image's alt already names the link. */}
          <span className="tile-name tile-cut" aria-hidden {...overflowText}>
            {renderText(name)}
          </span>
          <span className="tile-line tile-author">
            <PersonAvatar person={upload.creator} size={20} />
            <span className="tile-caption tile-cut" data-tile-author {...overflowText}>
              {renderText(creator)}
            </span>
          </span>
          <span className="tile-line tile-when">
            <span className="tile-caption tile-secondary tile-cut tile-grow">
              <time dateTime={upload.createdAt} title={`Uploaded ${exact}`} data-tile-time>
                <span className="tile-relative">{formatTileTime(upload.createdAt)}</span>
                <span className="tile-exact">{exact}</span>
              </time>
            </span>
            <CommentCount count={upload.commentsCount ?? 0} />
          </span>
          {showProject ? (
            <span
              className="tile-caption tile-secondary tile-cut tile-project"
              data-tile-project
              {...overflowText}
            >
              {renderText(upload.project.name)}
            </span>
          ) : null}
        </span>
      </CardActionArea>
      {tooltip.popup}
    </Card>
  );
});

interface UploadGridProps {
  uploads: readonly TileUpload[];
  /** A tile placed first, e.g. the project page's "add an upload" tile. */
  leading?: ReactNode;
  /** Accessible name of the feed, e.g. "Latest uploads". */
  label?: string;
  /** Tiles name their project: for feeds across projects (Home, Photos, a member's uploads). */
  showProject?: boolean;
  /** The level of the day headings under the feed's own heading. */
  headingLevel?: 'h2' | 'h3';
  /** Called as a tile is opened (the feed marks itself as the one the viewer pages through). */
  onOpen?: (id: number) => void;
  /**
   * Under day headings (feeds, newest first), or one list in the order given (search results,
   * ranked by relevance, where days would be cut into many runs).
   */
  byDay?: boolean;
  /** Draws the tiles' texts (see UploadTile). */
  renderText?: (text: string) => ReactNode;
}

const gridSx = {
  display: 'grid',
  gridTemplateColumns: uploadGridColumns,
  gap: 1.5,
  listStyle: 'none',
  m: 0,
  p: 0,
} as const;

/**
 * A feed's tiles under day headings ("Today", "Yesterday", "Mon 16 Nov"), each day its own list,
 * for Home, the photos page, projects and profiles. A heading counts a photo by its capture
 * time when the camera recorded one, else by its upload time, and says which.
 */
export function UploadGrid({
  uploads,
  leading,
  label,
  showProject = false,
  headingLevel = 'h3',
  onOpen,
  byDay = true,
  renderText,
}: UploadGridProps) {
  const headingId = useId();
  const groups = byDay ? groupByDay(uploads) : [];
  // Opening the viewer changes only `photo`: the tiles' links stay, so the tiles do not redraw.
  const page = usePageWithoutPhoto();
  if (!byDay) {
    return (
      <Box component="ul" aria-label={label} data-upload-feed sx={gridSx}>
        {leading ? <li>{leading}</li> : null}
        {uploads.map((upload, i) => (
          <li key={upload.id}>
            <UploadTile
              upload={upload}
              page={page}
              loading={tileImageLoading(i)}
              showProject={showProject}
              onOpen={onOpen}
              renderText={renderText}
            />
          </li>
        ))}
      </Box>
    );
  }
  if (groups.length === 0) {
    return (
      <Box component="ul" aria-label={label} sx={gridSx}>
        {leading ? <li>{leading}</li> : null}
      </Box>
    );
  }
  let index = 0;
  return (
    <Box
      component="section"
      aria-label={label}
      data-upload-feed
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      {groups.map((group, g) => {
        const id = `${headingId}-${g}`;
        return (
          <Box key={`${group.key}-${g}`} component="section" aria-labelledby={id}>
            <Typography
              id={id}
              component={headingLevel}
              variant="subtitle2"
              data-day-heading={group.key}
              sx={{
                mb: 1,
                display: 'flex',
                flexWrap: 'wrap',
                columnGap: 1,
                alignItems: 'baseline',
              }}
            >
              <Box component="span" sx={{ fontWeight: 700 }}>
                {group.label}
              </Box>
              <Typography component="span" variant="caption" color="text.secondary">
                {basisLabel(group.basis)}
              </Typography>
            </Typography>
            <Box component="ul" aria-label={`${label ?? 'Photos'}, ${group.label}`} sx={gridSx}>
              {g === 0 && leading ? <li>{leading}</li> : null}
              {group.uploads.map((upload) => {
                const loading = tileImageLoading(index++);
                return (
                  <li key={upload.id}>
                    <UploadTile
                      upload={upload}
                      page={page}
                      loading={loading}
                      showProject={showProject}
                      onOpen={onOpen}
                      renderText={renderText}
                    />
                  </li>
                );
              })}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
