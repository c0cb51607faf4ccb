import type { Upload } from '@sitelog/shared';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { tileImageLoading, tileImageProps, type TileImageLoading } from '@/components/tile-image';
import { formatRelativeDay } from '@/lib/format-relative-day';
import { paths } from '@/lib/paths';

/** Same columns as the shell's TileGridSkeleton, so loading and loaded grids line up. */
export const uploadGridColumns = {
  xs: 'repeat(2, minmax(0, 1fr))',
  sm: 'repeat(3, minmax(0, 1fr))',
  md: 'repeat(4, minmax(0, 1fr))',
  lg: 'repeat(6, minmax(0, 1fr))',
};

/** Every tile's image box has this shape whatever the photo, so the grid never jumps. */
export const UPLOAD_TILE_ASPECT = '4 / 3';

export const uploadDisplayName = (upload: Pick<Upload, 'name'>) =>
  upload.name.trim() === '' ? 'Untitled photo' : upload.name;

type TileUpload = Pick<Upload, 'id' | 'name' | 'createdAt' | 'previewLink'>;

/** One photo: the small preview, name and relative date. */
export function UploadTile({
  upload,
  loading = 'lazy',
}: {
  upload: TileUpload;
  loading?: TileImageLoading;
}) {
  const name = uploadDisplayName(upload);
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea component={RouterLink} to={paths.upload(upload.id)} sx={{ height: '100%' }}>
        <Box sx={{ aspectRatio: UPLOAD_TILE_ASPECT, bgcolor: 'action.hover', overflow: 'hidden' }}>
          <Box
            component="img"
            src={upload.previewLink}
            alt={name}
            {...tileImageProps(loading)}
            decoding="async"
            sx={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
          />
        </Box>
        <Box sx={{ px: 1, py: 0.75, minWidth: 0 }}>
          {/* The image's alt already names the link. */}
          <Typography variant="body2" noWrap aria-hidden sx={{ fontWeight: 500 }}>
            {name}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" noWrap>
            {formatRelativeDay(upload.createdAt)}
          </Typography>
        </Box>
      </CardActionArea>
    </Card>
  );
}

interface UploadGridProps {
  uploads: readonly TileUpload[];
  /** A tile placed first, e.g. the project page's "add an upload" tile. */
  leading?: ReactNode;
  /** Accessible name of the list, e.g. "Latest uploads". */
  label?: string;
}

/** A grid of upload tiles linking to /upload/{id}; for Home, the photos page, projects, profiles. */
export function UploadGrid({ uploads, leading, label }: UploadGridProps) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        display: 'grid',
        gridTemplateColumns: uploadGridColumns,
        gap: 1.5,
        listStyle: 'none',
        m: 0,
        p: 0,
      }}
    >
      {leading ? <li>{leading}</li> : null}
      {uploads.map((upload, i) => (
        <li key={upload.id}>
          <UploadTile upload={upload} loading={tileImageLoading(i)} />
        </li>
      ))}
    </Box>
  );
}
