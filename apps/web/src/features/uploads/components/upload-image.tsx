import ZoomInOutlined from '@mui/icons-material/ZoomInOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { styled } from '@mui/material/styles';
import type { Upload } from '@sitelog/shared';
import { useId, useMemo } from 'react';
import { useOpenPhoto, useViewerSequence } from '../viewer/viewer-context';
import { uploadDisplayName } from './upload-tiles';

/** A plain img that keeps width/height as attributes (Box would turn them into CSS). */
const Img = styled('img')({ display: 'block' });

type ImageUpload = Pick<Upload, 'name' | 'formatedLink' | 'formatedWidth' | 'formatedHeight'>;

const noMore = () => undefined;

/** A box of the image's own shape that fits the width and `maxHeight`, reserved before it loads. */
function fittedWidth(upload: ImageUpload, maxHeight: string): string {
  const ratio = upload.formatedWidth / upload.formatedHeight;
  return `min(100%, ${upload.formatedWidth}px, calc(${maxHeight} * ${ratio}))`;
}

function hasSize(upload: ImageUpload): boolean {
  return upload.formatedWidth > 0 && upload.formatedHeight > 0;
}

/**
 * The formatted image at its own aspect ratio (no jump while it loads, never upscaled);
 * clicking it opens the photo in the full-screen viewer (`?photo=ID` on the current page).
 */
export function UploadImage({
  upload,
  maxHeight = '70vh',
}: {
  upload: Upload;
  maxHeight?: string;
}) {
  const name = uploadDisplayName(upload);
  const sized = hasSize(upload);
  const sequenceKey = useId();
  const uploads = useMemo(() => [upload], [upload]);
  useViewerSequence(sequenceKey, { uploads, hasMore: false, loadMore: noMore });
  const openPhoto = useOpenPhoto();
  return (
    <ButtonBase
      onClick={() => openPhoto(upload.id, sequenceKey)}
      aria-label={`View ${name} full screen`}
      aria-haspopup="dialog"
      focusRipple
      sx={{
        display: 'block',
        position: 'relative',
        width: sized ? fittedWidth(upload, maxHeight) : '100%',
        aspectRatio: sized ? `${upload.formatedWidth} / ${upload.formatedHeight}` : '4 / 3',
        bgcolor: 'action.hover',
        borderRadius: 1,
        overflow: 'hidden',
        cursor: 'zoom-in',
        '&.Mui-focusVisible': {
          outline: '3px solid',
          outlineColor: 'primary.main',
          outlineOffset: 2,
        },
      }}
    >
      <Img
        src={upload.formatedLink}
        alt={name}
        width={upload.formatedWidth || undefined}
        height={upload.formatedHeight || undefined}
        decoding="async"
        sx={{ width: '100%', height: '100%', objectFit: 'contain' }}
      />
      <Box
        aria-hidden
        sx={{
          position: 'absolute',
          right: 8,
          bottom: 8,
          display: 'flex',
          p: 0.5,
          borderRadius: '50%',
          bgcolor: 'rgba(0,0,0,0.55)',
          color: '#fff',
        }}
      >
        <ZoomInOutlined fontSize="small" />
      </Box>
    </ButtonBase>
  );
}
