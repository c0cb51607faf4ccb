import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { PHOTO_PARAM } from '@/features/uploads/viewer/photo-param';

/*
 * Everything the viewer is (the lightbox, the info panel, the not-found dialog, the feeds'
 * registry) is a chunk of its own, fetched when a photo is first opened: the shell only looks
 * for the parameter.
 */
const PhotoViewerScreen = lazy(() => import('./photo-viewer-screen'));

/** The one full-screen viewer of the signed-in app: open whenever the URL has `?photo=ID`. */
export function PhotoViewerHost() {
  const [params] = useSearchParams();
  if (!params.has(PHOTO_PARAM)) return null;
  return (
    <Suspense fallback={null}>
      <PhotoViewerScreen />
    </Suspense>
  );
}
