import { lazy, Suspense } from 'react';
import { usePhotoViewerState } from '@/features/uploads/viewer/viewer-context';

/*
 * Everything the viewer shows (the lightbox, the info panel, the not-found dialog) is a chunk of
 * its own, fetched when a photo is first opened: none of it is in the first download.
 */
const PhotoViewerScreen = lazy(() => import('./photo-viewer-screen'));

/** The one full-screen viewer of the signed-in app: open whenever the URL has `?photo=ID`. */
export function PhotoViewerHost() {
  const state = usePhotoViewerState();
  if (state.photoId === null && !state.invalid) return null;
  return (
    <Suspense fallback={null}>
      <PhotoViewerScreen {...state} />
    </Suspense>
  );
}
