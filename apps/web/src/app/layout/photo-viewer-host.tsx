import { useSearchParams } from 'react-router';
import { optionalPart } from '@/components/optional-part';
import { PHOTO_PARAM } from '@/features/uploads/viewer/photo-param';

/*
 * Everything the viewer is (the lightbox, the info panel, the not-found dialog, the feeds'
 * registry) is a chunk of its own, fetched when a photo is first opened: the shell only looks
 * for the parameter. Offline before it came, the page stays as it is (optionalPart).
 */
const PhotoViewerScreen = optionalPart(() => import('./photo-viewer-screen'));

/** The one full-screen viewer of the signed-in app: open whenever the URL has `?photo=ID`. */
export function PhotoViewerHost() {
  const [params] = useSearchParams();
  if (!params.has(PHOTO_PARAM)) return null;
  return <PhotoViewerScreen />;
}
