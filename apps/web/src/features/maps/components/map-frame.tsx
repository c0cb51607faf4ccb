import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { useMapConfig } from '../api/get-map-config';
import type { MapCanvasProps } from './map-types';

const loadCanvas = () => import('./map-canvas');
/** Leaflet's chunk; made anew after a failed load, since React.lazy keeps its first failure. */
let LazyMapCanvas = lazy(loadCanvas);

/** A grey box of the map's size while the settings or Leaflet's chunk load. */
export function MapSkeleton({
  height,
  label = 'Loading map…',
}: {
  height: MapCanvasProps['height'];
  label?: string;
}) {
  return (
    <OfflineFallback>
      <Box role="status" aria-label={label}>
        <Skeleton variant="rounded" sx={{ width: '100%', height }} />
      </Box>
    </OfflineFallback>
  );
}

interface BoundaryProps {
  children: ReactNode;
  onRetry: () => void;
}

/** Catches a failed load of Leaflet's chunk (offline, a new release) and offers to retry. */
class MapChunkBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <ErrorState
        error={this.state.error}
        title="The map could not be loaded"
        onRetry={this.props.onRetry}
      />
    );
  }
}

/**
 * A map with the app's tile settings (GET /api/config), drawn by Leaflet once its chunk has
 * loaded; a placeholder of the same height until then, and a retry when either fails.
 */
export function MapFrame(props: Omit<MapCanvasProps, 'tiles'>) {
  const config = useMapConfig();
  const [attempt, setAttempt] = useState(0);
  if (config.isPending) return <MapSkeleton height={props.height} />;
  if (config.isError)
    return (
      <ErrorState
        error={config.error}
        title="The map could not be loaded"
        onRetry={() => void config.refetch()}
        retrying={config.isFetching}
      />
    );
  const tiles = {
    url: config.data.mapTileUrl,
    attribution: config.data.mapAttribution,
    attributionUrl: config.data.mapAttributionUrl,
  };
  return (
    <MapChunkBoundary
      key={attempt}
      onRetry={() => {
        LazyMapCanvas = lazy(loadCanvas);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={<MapSkeleton height={props.height} />}>
        <LazyMapCanvas tiles={tiles} {...props} />
      </Suspense>
    </MapChunkBoundary>
  );
}
