import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useUpload } from '../api/get-upload';
import type { QueuedPhoto } from './queue-db';
import { useObjectUrl } from './use-upload-queue';

const imageSx = { display: 'block', width: '100%', height: '100%', objectFit: 'cover' } as const;

function Placeholder({ sent }: { sent: boolean }) {
  return (
    <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
      {sent ? (
        <CheckCircleOutlined color="success" sx={{ fontSize: 40 }} aria-hidden />
      ) : (
        <ImageNotSupportedOutlined color="disabled" sx={{ fontSize: 40 }} aria-hidden />
      )}
    </Stack>
  );
}

/** A sent photo's picture: the server's preview (its file has left the device). */
function ServerPreview({ uploadId }: { uploadId: number }) {
  const upload = useUpload(uploadId);
  if (!upload.data) return <Placeholder sent />;
  return <Box component="img" src={upload.data.previewLink} alt="" sx={imageSx} />;
}

/** A file the browser cannot draw (HEIC in most browsers, or not an image at all). */
function LocalPreview({ url }: { url: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <Placeholder sent={false} />;
  // Decoded off the main thread: a phone photo is 12 MP, and a batch of them must not stall
  // the page while the queue sends.
  return (
    <Box
      component="img"
      src={url}
      alt=""
      decoding="async"
      loading="lazy"
      onError={() => setBroken(true)}
      sx={imageSx}
    />
  );
}

/** A queued photo's picture: from the device until it is sent, then the server's preview. */
export function QueuedPhotoThumb({ photo }: { photo: QueuedPhoto }) {
  const url = useObjectUrl(photo.file);
  if (url) return <LocalPreview key={url} url={url} />;
  if (photo.uploadId !== null) return <ServerPreview uploadId={photo.uploadId} />;
  return <Placeholder sent={false} />;
}
