import MapOutlined from '@mui/icons-material/MapOutlined';
import Typography from '@mui/material/Typography';
import { mapLimits, type ProjectLocation } from '@sitelog/shared';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { paths } from '@/lib/paths';
import { useProjectLocations } from '../api/get-project-locations';
import { MapFrame, MapSkeleton } from './map-frame';
import type { MapPin } from './map-types';

const HEIGHT = { xs: 440, sm: 520, md: 600 };
const count = new Intl.NumberFormat('en');
const projectClusterLabel = (n: number) => `${n} projects here. Zoom in`;

/**
 * Every project with coordinates on one map (All projects, Map view), clustered where they
 * crowd; a pin opens its project.
 */
export function ProjectsMap() {
  const query = useProjectLocations();
  const navigate = useNavigate();
  const openProject = useCallback((id: number) => void navigate(paths.project(id)), [navigate]);
  const projects = query.data;
  const byId = useMemo(
    () => new Map<number, ProjectLocation>((projects ?? []).map((p) => [p.id, p])),
    [projects],
  );
  const pins = useMemo(
    () =>
      (projects ?? []).map((project): MapPin => ({
        id: project.id,
        latitude: project.latitude,
        longitude: project.longitude,
        label: project.name,
      })),
    [projects],
  );
  const pinLabel = useCallback(
    (pin: MapPin) => {
      const project = byId.get(pin.id);
      return project ? `Project: ${project.name}, ${project.location}` : `Project: ${pin.label}`;
    },
    [byId],
  );

  if (query.isPending) return <MapSkeleton height={HEIGHT} label="Loading the map of projects…" />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        title="The map of projects could not be loaded"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  if (query.data.length === 0)
    return (
      <EmptyState
        icon={<MapOutlined />}
        message="No project has a location yet"
        description="A project shows on the map once its location is picked from the suggestions."
      />
    );
  return (
    <>
      <MapFrame
        pins={pins}
        pinKind="project"
        embedded={false}
        onPinSelect={openProject}
        label="Map of projects"
        pinLabel={pinLabel}
        clusterLabel={projectClusterLabel}
        height={HEIGHT}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {query.data.length >= mapLimits.projectPinsMax
          ? `Showing the ${count.format(mapLimits.projectPinsMax)} most recently active projects with a location.`
          : query.data.length === 1
            ? '1 project with a location.'
            : `${count.format(query.data.length)} projects with a location.`}
      </Typography>
    </>
  );
}
