import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { Upload } from '@sitelog/shared';
import { Link as RouterLink, useLocation } from 'react-router';
import { ArchivedChip } from '@/components/archived-chip';
import { Fact } from '@/components/fact';
import { CollapsibleText } from '@/components/collapsible-text';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { formatRelativeDay } from '@/lib/format-relative-day';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CommentThread } from '@/features/comments/components/comment-thread';
import { canEditUpload, isInArchivedProject } from '@/features/uploads/can-edit-upload';
import { UploadBoundary } from '@/features/uploads/components/upload-boundary';
import { UploadImage } from '@/features/uploads/components/upload-image';
import { UploadTags } from '@/features/uploads/components/upload-tags';
import { uploadDisplayName } from '@/features/uploads/components/upload-tiles';
import { useRouteId } from '@/lib/use-route-id';
import { afterCommentChange, afterUploadChange } from '../invalidations';
import { PhotoPlace, PhotoPlaceMap } from '../layout/photo-place';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date);
}

/** Capture time as the camera wrote it: EXIF times often carry no zone, so none is added here. */
function formatCaptureTime(value: string): string {
  const local = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(\.\d+)?$/.exec(value);
  if (local) return formatDateTime(`${local[1]}T${local[2]}${local[3] ?? ''}`);
  return formatDateTime(value);
}

/** A link to `#comments` (a notification, the viewer) lands on the thread once it is drawn. */
const scrollToComments = () =>
  document.getElementById('comments')?.scrollIntoView?.({ block: 'start' });

function UploadView({ upload }: { upload: Upload }) {
  const user = useCurrentUser();
  const { hash } = useLocation();
  const name = uploadDisplayName(upload);
  useDocumentTitle(name);
  const creatorName = `${upload.creator.firstname} ${upload.creator.lastname}`;
  const place =
    upload.latitude !== null && upload.longitude !== null
      ? { latitude: upload.latitude, longitude: upload.longitude }
      : null;

  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeader
        title={name}
        subtitle={
          <>
            <Box component="span" title={formatDateTime(upload.createdAt)}>
              Uploaded {formatRelativeDay(upload.createdAt)}
            </Box>{' '}
            by{' '}
            <Link component={RouterLink} to={paths.memberProfile(upload.creator.id)}>
              {creatorName}
            </Link>{' '}
            to{' '}
            <Link component={RouterLink} to={paths.project(upload.project.id)}>
              {upload.project.name}
            </Link>
            {isInArchivedProject(upload) ? <ArchivedChip ml={1} /> : null}
          </>
        }
        actions={
          canEditUpload(user, upload) ? (
            <Button
              component={RouterLink}
              to={paths.uploadEdit(upload.id)}
              variant="contained"
              startIcon={<EditOutlined />}
            >
              Edit
            </Button>
          ) : undefined
        }
      />

      <Stack spacing={3}>
        <UploadImage upload={upload} />

        {upload.description ? (
          // Plain text, as typed: React escapes it, line breaks are kept; long ones collapse.
          <CollapsibleText text={upload.description} whiteSpace="pre-wrap" />
        ) : null}

        {upload.capturedAt || upload.camera || place ? (
          <Stack
            component="dl"
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 1.5, sm: 4 }}
            useFlexGap
            sx={{ m: 0, flexWrap: 'wrap' }}
          >
            {upload.capturedAt ? (
              <Fact label="Taken">{formatCaptureTime(upload.capturedAt)}</Fact>
            ) : null}
            {upload.camera ? <Fact label="Camera">{upload.camera}</Fact> : null}
            {place ? (
              <Fact label="Place">
                <PhotoPlace upload={upload} map={false} />
              </Fact>
            ) : null}
          </Stack>
        ) : null}
        {place ? (
          <Box sx={{ maxWidth: 480 }}>
            <PhotoPlaceMap upload={upload} />
          </Box>
        ) : null}

        <Box>
          <Button
            component="a"
            href={upload.originalLink}
            download
            variant="outlined"
            startIcon={<DownloadOutlined />}
          >
            Download original
          </Button>
        </Box>

        <Section title="Tags">
          <UploadTags
            upload={upload}
            invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
          />
        </Section>
        <Box id="comments" sx={{ scrollMarginTop: 80 }}>
          <Section title="Comments">
            <CommentThread
              uploadId={upload.id}
              readOnly={isInArchivedProject(upload)}
              invalidate={afterCommentChange(upload.id)}
              onLoaded={hash === '#comments' ? scrollToComments : undefined}
            />
          </Section>
        </Box>
      </Stack>
    </Box>
  );
}

/** /upload/{id}: one photo with who, when, where, and EDIT for its creator (spec §2). */
export function UploadPage() {
  const id = useRouteId();
  return <UploadBoundary id={id}>{(upload) => <UploadView upload={upload} />}</UploadBoundary>;
}
