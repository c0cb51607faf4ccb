import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Upload } from '@sitelog/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isNotFound } from '@/lib/is-not-found';
import { uploadQueryOptions } from '@/features/uploads/api/get-upload';
import { PhotoInfo } from '@/features/uploads/viewer/photo-info';
import PhotoViewer from '@/features/uploads/viewer/photo-viewer';
import { usePhotoViewerState } from '@/features/uploads/viewer/viewer-context';
import { afterUploadChange } from '../invalidations';
import { PhotoPlace } from './photo-place';

function renderInfo(upload: Upload) {
  return (
    <PhotoInfo
      upload={upload}
      place={<PhotoPlace upload={upload} />}
      invalidate={afterUploadChange(upload.project.id, upload.creator.id)}
    />
  );
}

/** Says why a photo in the URL cannot be shown (deleted, never existed, failed to load). */
function PhotoProblem({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} aria-labelledby="photo-problem-title">
      <DialogTitle id="photo-problem-title">Photo not shown</DialogTitle>
      <DialogContent>
        <Typography>{message}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The viewer open on the URL's photo (see PhotoViewerHost): it pages through the feed the photo was
 * opened from (or any feed on screen that holds it); a photo no feed on screen holds, e.g. from
 * a shared link, is fetched alone.
 */
export default function PhotoViewerScreen() {
  const { photoId, invalid, sequence, show, close } = usePhotoViewerState();
  const inSequence = photoId !== null && sequence !== null;
  const single = useQuery({
    ...uploadQueryOptions(photoId ?? 0),
    enabled: photoId !== null && !inSequence,
  });
  const uploads: readonly Upload[] = useMemo(() => {
    if (sequence) return sequence.uploads;
    return single.data ? [single.data] : [];
  }, [sequence, single.data]);

  if (invalid) return <PhotoProblem message="This link does not name a photo." onClose={close} />;
  if (photoId === null) return null;
  if (!inSequence && single.isError) {
    return (
      <PhotoProblem
        message={
          isNotFound(single.error)
            ? 'This photo does not exist any more, or the link is wrong.'
            : 'The photo could not be loaded. Check the connection and try again.'
        }
        onClose={close}
      />
    );
  }
  const index = uploads.findIndex((u) => u.id === photoId);
  if (index === -1) return null;
  return (
    <PhotoViewer
      uploads={uploads}
      index={index}
      onView={(i) => {
        const next = uploads[i];
        if (next) show(next.id);
      }}
      onClose={close}
      onNearEnd={sequence?.hasMore ? sequence.loadMore : undefined}
      renderInfo={renderInfo}
    />
  );
}
