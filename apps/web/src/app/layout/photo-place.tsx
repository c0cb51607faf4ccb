import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Upload } from '@sitelog/shared';
import { distanceKm, formatDistanceKm } from '@/lib/geo';
import { useMapConfig } from '@/features/maps/api/get-map-config';
import { useNearestPlace } from '@/features/maps/api/get-nearest-place';
import { PhotoLocationMap } from '@/features/maps/components/photo-location-map';
import { useProject } from '@/features/projects/api/get-project';

function openStreetMapUrl(latitude: number, longitude: number): string {
  const lat = latitude.toFixed(6);
  const lon = longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

/** "Bern, Switzerland", or "3.2 km from Bern, Switzerland" when the point is not in it. */
function PlaceName({ latitude, longitude }: { latitude: number; longitude: number }) {
  const nearest = useNearestPlace(latitude, longitude);
  if (!nearest.data?.place) return null;
  const { place, distanceKm: km } = nearest.data;
  const text = km !== null && km >= 2 ? `${formatDistanceKm(km)} from ${place.label}` : place.label;
  return (
    <Typography component="span" variant="body2" data-place-name sx={{ display: 'block' }}>
      {text}
    </Typography>
  );
}

/** The project's site, once its project is loaded (null when the project has no coordinates). */
function useSite(projectId: number) {
  const project = useProject(projectId);
  return project.data?.latitude != null && project.data.longitude != null
    ? { latitude: project.data.latitude, longitude: project.data.longitude }
    : null;
}

/** The small map of where a photo was taken, with its project's site; nothing without GPS. */
export function PhotoPlaceMap({ upload }: { upload: Upload }) {
  const site = useSite(upload.project.id);
  if (upload.latitude === null || upload.longitude === null) return null;
  return (
    <PhotoLocationMap
      key={site ? 'with-site' : 'photo-only'}
      latitude={upload.latitude}
      longitude={upload.longitude}
      site={site}
    />
  );
}

/**
 * Where a photo was taken: the nearest place's name, the coordinates (linked to OpenStreetMap),
 * a flag when it is farther from its project's site than FAR_FROM_SITE_KM, and a small map with
 * the site. For the viewer's info panel and the photo page; nothing but a sentence without GPS.
 */
export function PhotoPlace({ upload, map = true }: { upload: Upload; map?: boolean }) {
  const site = useSite(upload.project.id);
  const config = useMapConfig();
  if (upload.latitude === null || upload.longitude === null) return 'The photo does not say';
  const { latitude, longitude } = upload;
  const fromSite = site ? distanceKm({ latitude, longitude }, site) : null;
  const far =
    fromSite !== null && config.data !== undefined && fromSite > config.data.farFromSiteKm;
  return (
    <Stack component="span" spacing={1} sx={{ display: 'flex' }}>
      <PlaceName latitude={latitude} longitude={longitude} />
      <Link
        href={openStreetMapUrl(latitude, longitude)}
        target="_blank"
        rel="noopener noreferrer"
        sx={{ display: 'block' }}
      >
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </Link>
      {far && fromSite !== null ? (
        <Box
          component="span"
          data-far-from-site
          sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}
        >
          <WarningAmberOutlined fontSize="small" aria-hidden sx={{ color: 'warning.main' }} />
          <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
            Taken {formatDistanceKm(fromSite)} from the site
          </Typography>
        </Box>
      ) : null}
      {map ? (
        // Remounted when the site becomes known, so the map fits both.
        <PhotoLocationMap
          key={site ? 'with-site' : 'photo-only'}
          latitude={latitude}
          longitude={longitude}
          site={site}
        />
      ) : null}
    </Stack>
  );
}
