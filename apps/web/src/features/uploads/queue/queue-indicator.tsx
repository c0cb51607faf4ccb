import CloudOffOutlined from '@mui/icons-material/CloudOffOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { invalidateKeys } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { uploadKeys } from '../api/keys';
import { uploadQueue } from './runtime';
import { usePendingPhotos, useQueueOnline } from './use-upload-queue';

/**
 * The top bar's count of photos still on this device, linking to the queue; hidden when nothing
 * waits. It also starts the queue when the app opens (so a queue left by a closed tab is sent)
 * and refreshes what shows uploads whenever the queue delivers one.
 */
export function QueueIndicator({
  afterUpload,
}: {
  /** Keys of other features that show a project's uploads (the app knows them). */
  afterUpload: (projectId: number, creatorId: number) => QueryKey[];
}) {
  const queryClient = useQueryClient();
  const online = useQueueOnline();
  const { photos } = usePendingPhotos();

  useEffect(
    () =>
      uploadQueue.onUploaded((upload) => {
        queryClient.setQueryData(uploadKeys.detail(upload.id), upload);
        void invalidateKeys(queryClient, [
          uploadKeys.lists(),
          // Its tags count in the suggestions now.
          ...(upload.tags?.length ? [uploadKeys.tags()] : []),
          ...afterUpload(upload.project.id, upload.creator.id),
        ]);
      }),
    [queryClient, afterUpload],
  );

  if (photos.length === 0) return null;
  const refused = photos.filter((p) => p.status === 'refused').length;
  const label = `${photos.length} ${photos.length === 1 ? 'photo' : 'photos'} ${
    online ? 'waiting to be sent' : 'waiting for signal'
  }${refused ? `, ${refused} not accepted` : ''}`;
  const Icon = refused ? ErrorOutline : online ? CloudUploadOutlined : CloudOffOutlined;
  return (
    <Tooltip title={label}>
      <IconButton
        component={RouterLink}
        to={paths.uploadQueue}
        color="inherit"
        aria-label={label}
        // Narrow on phones, where the top bar's first row has room for one more small button.
        sx={{ p: { xs: 0.75, sm: 1 } }}
      >
        <Badge
          badgeContent={photos.length}
          max={999}
          color={refused ? 'error' : 'secondary'}
          data-testid="queue-count"
        >
          <Icon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
