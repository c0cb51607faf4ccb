import Typography from '@mui/material/Typography';
import { mapLimits, type Project } from '@sitelog/shared';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '@/components/error-state';
import { Section } from '@/components/section';
import { isNotFound } from '@/lib/is-not-found';
import { useProjectPhotoLocations } from '../api/get-project-photo-locations';
import { MapSkeleton } from './map-frame';
import { projectSite, ProjectSiteMap } from './project-site-map';

const HEIGHT = { xs: 300, sm: 380 };
const count = new Intl.NumberFormat('en');

type ProjectForMap = Pick<Project, 'id' | 'location' | 'latitude' | 'longitude'>;

/**
 * The project page's Map section: the site and the project's geotagged photos. A pin opens its
 * photo in the viewer by adding `?photo=<id>` to the page's URL (a new history entry, so Back
 * closes it). Shown when the project has coordinates or geotagged photos; until the photos are
 * known, only when it has coordinates.
 */
export function ProjectMapSection({ project }: { project: ProjectForMap }) {
  const query = useProjectPhotoLocations(project.id);
  const [, setSearchParams] = useSearchParams();
  const { location, latitude, longitude } = project;
  const site = useMemo(
    () => projectSite({ location, latitude, longitude }),
    [location, latitude, longitude],
  );
  const openPhoto = useCallback(
    (uploadId: number) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('photo', String(uploadId));
          return next;
        },
        // The viewer's mark that it was opened from this page, so closing it is a step back.
        { state: { photoViewer: true } },
      ),
    [setSearchParams],
  );

  // A project that went away is the page's to say.
  if (query.isError && isNotFound(query.error)) return null;
  const photos = query.data;
  if (!site && (query.isPending || photos?.length === 0)) return null;

  return (
    <Section
      title="Map"
      action={
        photos && photos.length > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {photos.length === 1
              ? '1 photo with a location'
              : `${count.format(photos.length)} photos with a location`}
          </Typography>
        ) : undefined
      }
    >
      {query.isPending ? (
        <MapSkeleton height={HEIGHT} />
      ) : query.isError ? (
        <ErrorState
          error={query.error}
          title="The photos' locations could not be loaded"
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <>
          <ProjectSiteMap
            site={site}
            photos={query.data}
            onPhotoSelect={openPhoto}
            height={HEIGHT}
          />
          <MapCaption photoCount={query.data.length} hasSite={site !== null} />
        </>
      )}
    </Section>
  );
}

function MapCaption({ photoCount, hasSite }: { photoCount: number; hasSite: boolean }) {
  let text: string | null = null;
  if (photoCount === 0) text = 'None of this project’s photos has a location yet.';
  else if (!hasSite)
    text = 'The project has no site location; the pins show where its photos were taken.';
  else if (photoCount >= mapLimits.photoPinsMax)
    text = `Showing the newest ${count.format(mapLimits.photoPinsMax)} photos with a location.`;
  if (!text) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
      {text}
    </Typography>
  );
}
