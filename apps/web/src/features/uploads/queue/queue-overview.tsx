import CloudDoneOutlined from '@mui/icons-material/CloudDoneOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { formatBytes } from './format-bytes';
import { photoStatus } from './photo-status';
import { QueuedPhotoCard } from './queued-photo-card';
import { uploadQueue } from './runtime';
import { usePendingPhotos, useQueueOnline } from './use-upload-queue';

const gridColumns = {
  xs: 'repeat(2, minmax(0, 1fr))',
  sm: 'repeat(3, minmax(0, 1fr))',
  md: 'repeat(4, minmax(0, 1fr))',
};

/** The browser's storage estimate for this site (usage and quota), when it gives one. */
function useStorageEstimate(dependsOn: number): StorageEstimate | null {
  const [estimate, setEstimate] = useState<StorageEstimate | null>(null);
  useEffect(() => {
    let live = true;
    void navigator.storage
      ?.estimate?.()
      .then((value) => {
        if (live) setEstimate(value);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [dependsOn]);
  return estimate;
}

/**
 * Every photo still on this device: what waits, is being sent, failed and was refused, with
 * sizes, the space the queue takes, SEND NOW, and Retry / Discard per photo.
 */
export function QueueOverview() {
  const online = useQueueOnline();
  const pending = usePendingPhotos();
  const estimate = useStorageEstimate(pending.bytes);

  if (!pending.loaded) {
    return <Skeleton variant="rounded" height={160} aria-label="Reading the queue…" />;
  }
  if (pending.photos.length === 0) {
    return (
      <EmptyState
        icon={<CloudDoneOutlined />}
        message="Nothing waiting"
        description="Every photo taken on this device has reached the server."
      />
    );
  }

  const counts = { waiting: 0, sending: 0, failed: 0, refused: 0 };
  for (const photo of pending.photos) {
    const tone = photoStatus(photo, { online }).tone;
    if (tone === 'sent') continue;
    counts[tone] += 1;
  }
  const summary = [
    counts.sending ? `${counts.sending} sending` : null,
    counts.waiting ? `${counts.waiting} waiting` : null,
    counts.failed ? `${counts.failed} failed, retrying` : null,
    counts.refused ? `${counts.refused} not accepted` : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Box>
            <Typography variant="subtitle1" component="p" role="status">
              {pending.photos.length} {pending.photos.length === 1 ? 'photo' : 'photos'} on this
              device: {summary}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              The queue uses {formatBytes(pending.bytes)}
              {estimate?.quota
                ? ` of this device's storage; the site may use ${formatBytes(estimate.quota)} in all (${formatBytes(estimate.usage ?? 0)} used).`
                : ' of this device’s storage.'}
            </Typography>
          </Box>
          <Button
            variant="contained"
            startIcon={<SendOutlined />}
            disabled={!online}
            onClick={() => uploadQueue.sendNow()}
            sx={{ flexShrink: 0 }}
          >
            Send now
          </Button>
        </Stack>
      </Paper>
      {!online ? (
        <Alert severity="info">
          No signal. The photos are safe on this device and are sent when the connection returns,
          also after the app was closed.
        </Alert>
      ) : null}
      <Box
        component="ul"
        aria-label="Photos on this device"
        sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: gridColumns, p: 0, m: 0 }}
      >
        {pending.photos.map((photo) => (
          <QueuedPhotoCard key={photo.clientId} photo={photo} showProject />
        ))}
      </Box>
    </Stack>
  );
}
