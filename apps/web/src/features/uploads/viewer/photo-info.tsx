import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Upload } from '@sitelog/shared';
import type { ReactNode } from 'react';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { Link as RouterLink } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { Fact } from '@/components/fact';
import { formatExactTime } from '@/lib/format-photo-time';
import { paths } from '@/lib/paths';
import { isInArchivedProject } from '../can-edit-upload';
import { uploadDisplayName } from '../components/upload-tiles';
import { UploadTags } from '../components/upload-tags';
import { PersonAvatar } from '@/components/person-avatar';

/** The info panel's way to the photo page's thread ("3 comments"), or to write the first. */
function CommentsLink({ upload }: { upload: Upload }) {
  const count = upload.commentsCount ?? 0;
  if (count === 0 && isInArchivedProject(upload)) return <>None</>;
  return (
    <Link component={RouterLink} to={`${paths.upload(upload.id)}#comments`}>
      {count === 0 ? 'None yet: write the first' : `${count} comment${count === 1 ? '' : 's'}`}
    </Link>
  );
}

/**
 * What the viewer's info panel says about a photo: name, description, who, which project (marked
 * Archived when it is: the photo is read-only), its tags (editable by its creator), when it was
 * taken and uploaded, the camera, where (`place`, composed by the page: the place name,
 * coordinates and a small map), how many comments it has (a link to them on the photo page) and
 * the original's download.
 */
export function PhotoInfo({
  upload,
  place,
  invalidate,
}: {
  upload: Upload;
  place?: ReactNode;
  /** What other features show about the photo, refreshed after its tags change (the app knows). */
  invalidate?: ExtraInvalidations;
}) {
  const name = uploadDisplayName(upload);
  const creator = `${upload.creator.firstname} ${upload.creator.lastname}`;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Box>
        <Typography variant="h2" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        {upload.description ? (
          // Plain text as typed: React escapes it, line breaks are kept.
          <Typography
            variant="body2"
            sx={{ mt: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {upload.description}
          </Typography>
        ) : null}
      </Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <PersonAvatar person={upload.creator} />
        <Box sx={{ minWidth: 0 }}>
          <Link component={RouterLink} to={paths.memberProfile(upload.creator.id)}>
            {creator}
          </Link>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            in{' '}
            <Link component={RouterLink} to={paths.project(upload.project.id)}>
              {upload.project.name}
            </Link>
            {isInArchivedProject(upload) ? <ArchivedChip ml={1} /> : null}
          </Typography>
        </Box>
      </Stack>
      <Box component="section" aria-labelledby={`photo-tags-${upload.id}`}>
        <Typography
          id={`photo-tags-${upload.id}`}
          variant="subtitle2"
          component="h3"
          color="text.secondary"
          sx={{ mb: 0.5 }}
        >
          Tags
        </Typography>
        {/* Keyed by photo: paging to the next one leaves an unsaved edit behind. */}
        <UploadTags
          key={upload.id}
          upload={upload}
          invalidate={invalidate}
          size="small"
          disablePortal
        />
      </Box>
      <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
        <Fact label="Taken">
          {upload.capturedAt ? formatExactTime(upload.capturedAt) : 'The photo does not say'}
        </Fact>
        <Fact label="Uploaded">{formatExactTime(upload.createdAt)}</Fact>
        {upload.camera ? <Fact label="Camera">{upload.camera}</Fact> : null}
        {place ? <Fact label="Place">{place}</Fact> : null}
        <Fact label="Comments">
          <CommentsLink upload={upload} />
        </Fact>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          component="a"
          href={upload.originalLink}
          download
          variant="outlined"
          size="small"
          startIcon={<DownloadOutlined />}
        >
          Download original
        </Button>
        <Button
          component={RouterLink}
          to={paths.upload(upload.id)}
          size="small"
          startIcon={<OpenInNew />}
        >
          Photo page
        </Button>
      </Stack>
    </Stack>
  );
}
