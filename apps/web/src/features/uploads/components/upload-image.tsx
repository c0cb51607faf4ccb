import CloseIcon from '@mui/icons-material/Close';
import ZoomInOutlined from '@mui/icons-material/ZoomInOutlined';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import { styled } from '@mui/material/styles';
import type { Upload } from '@sitelog/shared';
import { useState } from 'react';
import { uploadDisplayName } from './upload-tiles';

/** A plain img that keeps width/height as attributes (Box would turn them into CSS). */
const Img = styled('img')({ display: 'block' });

type ImageUpload = Pick<Upload, 'name' | 'formatedLink' | 'formatedWidth' | 'formatedHeight'>;

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
 * clicking it opens it large in a dialog.
 */
export function UploadImage({
  upload,
  maxHeight = '70vh',
}: {
  upload: ImageUpload;
  maxHeight?: string;
}) {
  const [open, setOpen] = useState(false);
  const name = uploadDisplayName(upload);
  const sized = hasSize(upload);
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={`View ${name} large`}
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
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        maxWidth={false}
        slotProps={{
          paper: {
            'aria-label': name,
            sx: {
              m: 1,
              bgcolor: 'common.black',
              position: 'relative',
              maxWidth: 'calc(100vw - 16px)',
              maxHeight: 'calc(100dvh - 16px)',
              overflow: 'hidden',
            },
          },
        }}
      >
        <IconButton
          onClick={() => setOpen(false)}
          aria-label="Close"
          sx={{
            position: 'absolute',
            top: 8,
            right: 8,
            color: '#fff',
            bgcolor: 'rgba(0,0,0,0.55)',
            '&:hover': { bgcolor: 'rgba(0,0,0,0.75)' },
          }}
        >
          <CloseIcon />
        </IconButton>
        <Img
          src={upload.formatedLink}
          alt={name}
          sx={{
            maxWidth: 'calc(100vw - 16px)',
            maxHeight: 'calc(100dvh - 16px)',
            width: 'auto',
            height: 'auto',
            alignSelf: 'center',
            objectFit: 'contain',
          }}
        />
      </Dialog>
    </>
  );
}
