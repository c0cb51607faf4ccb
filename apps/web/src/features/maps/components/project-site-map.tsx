import type { PhotoLocation } from '@sitelog/shared';
import { useMemo } from 'react';
import { MapFrame } from './map-frame';
import type { MapCanvasProps, MapPin, MapSite } from './map-types';

/** Where a project's site is, as the map's marker; null when the project has no coordinates. */
export function projectSite(project: {
  location: string;
  latitude: number | null;
  longitude: number | null;
}): MapSite | null {
  if (project.latitude === null || project.longitude === null) return null;
  return {
    latitude: project.latitude,
    longitude: project.longitude,
    label: `Project site: ${project.location}`,
  };
}

const photoPinLabel = (pin: MapPin) => `Photo: ${pin.label}`;
const photoClusterLabel = (count: number) => `${count} photos here. Zoom in`;

interface ProjectSiteMapProps {
  /** The project's site (see projectSite), or null. */
  site: MapSite | null;
  photos: readonly PhotoLocation[];
  /** A photo's pin was clicked or pressed. */
  onPhotoSelect: (uploadId: number) => void;
  height?: MapCanvasProps['height'];
}

/** A project's site and the pins of its geotagged photos, clustered where they crowd. */
export function ProjectSiteMap({
  site,
  photos,
  onPhotoSelect,
  height = { xs: 300, sm: 380 },
}: ProjectSiteMapProps) {
  const pins = useMemo(
    () =>
      photos.map((photo) => ({
        id: photo.id,
        latitude: photo.latitude,
        longitude: photo.longitude,
        label: photo.name || `Photo ${photo.id}`,
      })),
    [photos],
  );
  return (
    <MapFrame
      pins={pins}
      pinKind="photo"
      site={site}
      onPinSelect={onPhotoSelect}
      label="Map of the project's site and photos"
      pinLabel={photoPinLabel}
      clusterLabel={photoClusterLabel}
      height={height}
    />
  );
}
