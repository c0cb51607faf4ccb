import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import ScheduleOutlined from '@mui/icons-material/ScheduleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { memo, useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { OverflowTooltip, overflowText } from '@/components/overflow-tooltip';
import { paths } from '@/lib/paths';
import { DiscardButton } from './discard-dialog';
import { formatBytes } from './format-bytes';
import { photoStatus, type PhotoTone } from './photo-status';
import type { QueuedPhoto } from './queue-db';
import { uploadQueue } from './runtime';
import { QueuedPhotoThumb } from './queued-photo-thumb';
import { usePhotoProgress, useQueueOnline } from './use-upload-queue';

const toneColor: Record<PhotoTone, string> = {
  waiting: 'text.secondary',
  sending: 'text.primary',
  sent: 'success.main',
  failed: 'warning.dark',
  refused: 'error.main',
};

function ToneIcon({ tone }: { tone: PhotoTone }) {
  const sx = { fontSize: 16, flexShrink: 0 };
  if (tone === 'sent') return <CheckCircleOutlined sx={sx} />;
  if (tone === 'refused' || tone === 'failed') return <ErrorOutline sx={sx} />;
  if (tone === 'waiting') return <CloudOffOutlined sx={sx} />;
  return <ScheduleOutlined sx={sx} />;
}

/** A link cut to one line with an ellipsis, shown whole in a tooltip on hover and focus. */
function CutLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    // The link holds the ellipsis itself, so its tooltip can tell it is cut.
    <OverflowTooltip>
      <RouterLink
        to={to}
        style={{ color: 'inherit', display: 'block', overflow: 'hidden', textOverflow: 'ellipsis' }}
        {...overflowText}
      >
        {children}
      </RouterLink>
    </OverflowTooltip>
  );
}

/** The name a queued photo will have: what was typed, or what the server named it. */
export const queuedPhotoName = (photo: QueuedPhoto) =>
  photo.name.trim() || (photo.status === 'sent' ? 'Untitled photo' : 'Name given when sent');

/**
 * One photo of the queue: its picture (from the device), name, size and state, with progress
 * while it is sent, and Retry / Discard when it failed or was refused.
 */
export const QueuedPhotoCard = memo(function QueuedPhotoCard({
  photo,
  showProject = false,
}: {
  photo: QueuedPhoto;
  showProject?: boolean;
}) {
  const online = useQueueOnline();
  const fraction = usePhotoProgress(photo.clientId);
  const status = photoStatus(photo, { online, fraction });
  const labelId = useId();
  const name = queuedPhotoName(photo);
  return (
    <Card
      variant="outlined"
      component="li"
      aria-labelledby={labelId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', listStyle: 'none' }}
    >
      <Box sx={{ aspectRatio: '4 / 3', bgcolor: 'action.hover', overflow: 'hidden' }}>
        <QueuedPhotoThumb photo={photo} />
      </Box>
      <Stack spacing={0.5} sx={{ px: 1, py: 0.75, minWidth: 0, flexGrow: 1 }}>
        <Typography id={labelId} variant="body2" noWrap sx={{ fontWeight: 500 }}>
          {photo.uploadId !== null ? (
            <CutLink to={paths.upload(photo.uploadId)}>{name}</CutLink>
          ) : (
            name
          )}
        </Typography>
        {showProject ? (
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            <CutLink to={paths.project(photo.projectId)}>{photo.projectName}</CutLink>
          </Typography>
        ) : null}
        <Stack
          direction="row"
          spacing={0.5}
          // Not a live region (it changes with every percent); the bench reads it by this.
          data-photo-status=""
          sx={{ alignItems: 'center', color: toneColor[status.tone], minWidth: 0 }}
        >
          <ToneIcon tone={status.tone} />
          <Typography variant="caption" noWrap>
            {status.label}
            {photo.status === 'sent' ? '' : ` · ${formatBytes(photo.size)}`}
          </Typography>
        </Stack>
        {status.fraction !== undefined ? (
          <LinearProgress
            aria-label={`Sending ${name}`}
            variant={status.fraction === null ? 'indeterminate' : 'determinate'}
            value={status.fraction === null ? undefined : status.fraction * 100}
          />
        ) : null}
        {status.detail ? (
          <Typography
            variant="caption"
            color={status.tone === 'refused' ? 'error' : 'text.secondary'}
            sx={{ overflowWrap: 'anywhere' }}
          >
            {status.detail}
          </Typography>
        ) : null}
        {photo.status === 'refused' || photo.status === 'waiting' ? (
          <Stack direction="row" spacing={1} sx={{ mt: 'auto' }}>
            {photo.status === 'refused' || photo.attempts > 0 ? (
              <Button
                size="small"
                onClick={() => void uploadQueue.retry(photo.clientId)}
                aria-label={`Retry ${photo.fileName}`}
              >
                Retry
              </Button>
            ) : null}
            <DiscardButton photo={photo} label={`Discard ${photo.fileName}`} />
          </Stack>
        ) : null}
      </Stack>
    </Card>
  );
});
