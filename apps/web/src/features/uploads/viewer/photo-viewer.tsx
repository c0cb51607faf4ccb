import InfoOutlined from '@mui/icons-material/InfoOutlined';
import InfoRounded from '@mui/icons-material/InfoRounded';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { Upload } from '@sitelog/shared';
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import Lightbox, { type Slide } from 'yet-another-react-lightbox';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import { uploadDisplayName } from '../components/upload-tiles';
import { previewSize } from './preview-size';

const stopPropagation = (event: { stopPropagation: () => void }) => event.stopPropagation();

/**
 * Keys typed in a field of the panel (the tags) are the field's: the lightbox would take the
 * arrows as previous/next and Escape as close. Elsewhere in the panel they stay the viewer's.
 */
const keepTypingKeys = (event: KeyboardEvent<HTMLElement>) => {
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, [contenteditable="true"]')) event.stopPropagation();
};

/** Width of the info panel beside the photo on wide screens. */
export const INFO_PANEL_WIDTH = 360;

interface PhotoSlide extends Slide {
  upload: Upload;
}

function toSlide(upload: Upload): PhotoSlide {
  const width = upload.formatedWidth || undefined;
  const height = upload.formatedHeight || undefined;
  const preview = width && height ? previewSize(width, height) : null;
  return {
    upload,
    src: upload.formatedLink,
    alt: uploadDisplayName(upload),
    width,
    height,
    // The browser picks the smaller preview only where the slide is small enough for it.
    srcSet:
      width && height && preview
        ? [
            { src: upload.previewLink, ...preview },
            { src: upload.formatedLink, width, height },
          ]
        : undefined,
  };
}

export interface PhotoViewerProps {
  uploads: readonly Upload[];
  index: number;
  /** The photo shown changed (keys, swipe, buttons). */
  onView: (index: number) => void;
  onClose: () => void;
  /** The last photo is shown and the feed has more: fetch the next page. */
  onNearEnd?: () => void;
  /** The info panel's content for a photo. */
  renderInfo: (upload: Upload) => ReactNode;
}

/**
 * The full-screen viewer (yet-another-react-lightbox): arrow keys, swipe and buttons for
 * previous and next, Escape to close, wheel and pinch zoom with pan, the neighbours preloaded,
 * and an info panel. While the display image loads, the preview the grid already fetched fills
 * its box, so a photo appears at once and sharpens. The dialog keeps focus inside and gives it
 * back to the tile on close.
 */
export default function PhotoViewer({
  uploads,
  index,
  onView,
  onClose,
  onNearEnd,
  renderInfo,
}: PhotoViewerProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'));
  const [infoOpen, setInfoOpen] = useState<boolean | null>(null);
  const showInfo = infoOpen ?? wide;
  const slides = useMemo(() => uploads.map(toSlide), [uploads]);
  const current = uploads[index];
  const panelBeside = showInfo && wide;

  const infoLabel = showInfo ? 'Hide photo info' : 'Show photo info';
  const infoButton = (
    <button
      key="info"
      type="button"
      className="yarl__button"
      aria-label={infoLabel}
      title={infoLabel}
      aria-pressed={showInfo}
      aria-controls="photo-viewer-info"
      onClick={() => setInfoOpen(!showInfo)}
    >
      {showInfo ? <InfoRounded className="yarl__icon" /> : <InfoOutlined className="yarl__icon" />}
    </button>
  );

  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={slides}
      plugins={[Zoom]}
      zoom={{ maxZoomPixelRatio: 2, scrollToZoom: true }}
      carousel={{ finite: true, preload: 2, padding: wide ? '16px' : 0 }}
      controller={{ closeOnPullDown: true, closeOnBackdropClick: false }}
      animation={{ swipe: 200, navigation: 0 }}
      labels={{ Lightbox: 'Photo viewer', Previous: 'Previous photo', Next: 'Next photo' }}
      toolbar={{ buttons: [infoButton, 'zoom', 'close'] }}
      styles={{
        // The photo, its buttons and the backdrop keep to the left of the panel; the panel is
        // fixed to the screen's right edge (it is still inside the dialog, so focus reaches it).
        container: panelBeside ? { right: INFO_PANEL_WIDTH } : undefined,
      }}
      on={{
        view: ({ index: shown }) => {
          if (shown !== index) onView(shown);
          if (shown >= uploads.length - 2) onNearEnd?.();
        },
      }}
      render={{
        slideContainer: ({ slide, children }) => (
          <PreviewUnderneath slide={slide as PhotoSlide}>{children}</PreviewUnderneath>
        ),
        controls: () =>
          showInfo && current ? (
            <Box
              // A new photo, a new panel: its map fits the new place, its scroll starts at the top.
              key={current.id}
              id="photo-viewer-info"
              component="aside"
              aria-label="Photo info"
              // Scrolling, selecting and dragging in the panel are the panel's: the lightbox
              // listens on its whole container and would zoom or change the photo.
              onWheel={stopPropagation}
              onPointerDown={stopPropagation}
              onPointerMove={stopPropagation}
              onPointerUp={stopPropagation}
              onKeyDown={keepTypingKeys}
              sx={{
                position: wide ? 'fixed' : 'absolute',
                zIndex: 1,
                overflowY: 'auto',
                bgcolor: 'background.paper',
                color: 'text.primary',
                ...(wide
                  ? { top: 0, right: 0, bottom: 0, width: INFO_PANEL_WIDTH }
                  : {
                      left: 0,
                      right: 0,
                      bottom: 0,
                      maxHeight: '55%',
                      borderTopLeftRadius: 12,
                      borderTopRightRadius: 12,
                    }),
              }}
            >
              {renderInfo(current)}
            </Box>
          ) : null,
      }}
    />
  );
}

/** The slide's preview, stretched to the display image's box, under the display image. */
function PreviewUnderneath({ slide, children }: { slide: PhotoSlide; children: ReactNode }) {
  const { upload } = slide;
  return (
    <Box
      sx={{
        position: 'relative',
        width: '100%',
        height: '100%',
        // Once the display image is in, the preview stops being drawn under it: one image to
        // paint per slide, not two.
        '&:has(.yarl__slide_image:not(.yarl__slide_image_loading)) > [data-photo-preview]': {
          display: 'none',
        },
      }}
    >
      {slide.width && slide.height ? (
        <Box
          component="img"
          src={upload.previewLink}
          alt=""
          aria-hidden
          data-photo-preview={upload.id}
          sx={{
            position: 'absolute',
            inset: 0,
            m: 'auto',
            width: slide.width,
            height: slide.height,
            maxWidth: '100%',
            maxHeight: '100%',
            objectFit: 'contain',
            pointerEvents: 'none',
          }}
        />
      ) : null}
      {children}
    </Box>
  );
}
