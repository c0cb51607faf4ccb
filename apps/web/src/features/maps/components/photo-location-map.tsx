import { useMemo } from 'react';
import type { LatLng } from '@/lib/geo';
import { MapFrame } from './map-frame';
import type { MapPin } from './map-types';

export interface PhotoLocationMapProps {
  /** Where the photo was taken (its GPS). */
  latitude: number;
  longitude: number;
  /** The project's site, drawn as its own marker when given. */
  site?: LatLng | null;
  /** CSS height; 200 px unless told. */
  height?: number | string;
}

const photoLabel = () => 'Where the photo was taken';
const clusterLabel = (n: number) => `${n} photos`;

/**
 * A small still map of where a photo was taken (and of its project's site, when given), for the
 * viewer's info panel: no panning or zooming, the tiles' credit shown.
 */
export function PhotoLocationMap({
  latitude,
  longitude,
  site = null,
  height = 200,
}: PhotoLocationMapProps) {
  const pins = useMemo(
    (): MapPin[] => [{ id: 0, latitude, longitude, label: 'Photo' }],
    [latitude, longitude],
  );
  const siteLatitude = site?.latitude;
  const siteLongitude = site?.longitude;
  const siteMarker = useMemo(
    () =>
      siteLatitude === undefined || siteLongitude === undefined
        ? null
        : { latitude: siteLatitude, longitude: siteLongitude, label: 'Project site' },
    [siteLatitude, siteLongitude],
  );
  return (
    <MapFrame
      pins={pins}
      pinKind="photo"
      site={siteMarker}
      interactive={false}
      label={
        siteMarker
          ? 'Map of where the photo was taken and of the project site'
          : 'Map of where the photo was taken'
      }
      pinLabel={photoLabel}
      clusterLabel={clusterLabel}
      height={height}
    />
  );
}
