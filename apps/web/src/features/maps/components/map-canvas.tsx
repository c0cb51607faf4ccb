// The Leaflet map itself, in a chunk of its own (with Leaflet's CSS and supercluster): only the
// screens that show a map load it, through MapFrame.
import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { useTheme } from '@mui/material/styles';
import * as L from 'leaflet';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import Supercluster, { type PointFeature } from 'supercluster';
import type { MapCanvasProps, MapPin } from './map-types';

/** Pins closer than this (in screen pixels) are drawn as one cluster. */
const CLUSTER_RADIUS_PX = 48;
/** The deepest zoom of the tiles (OpenStreetMap's standard layer). */
const MAX_ZOOM = 19;
/** How close a map of one place opens, and how far fitting several points may zoom in. */
const SINGLE_POINT_ZOOM = 15;
const FIT_MAX_ZOOM = 16;

/** A text node in an element: Leaflet puts a string given as content in innerHTML. */
function textElement(text: string, className?: string): HTMLElement {
  const element = document.createElement('span');
  if (className) element.className = className;
  element.textContent = text;
  return element;
}

/**
 * Makes a marker's icon a labelled button that Enter and Space press (Leaflet makes it focusable
 * but only opens popups on Enter), calling `press`.
 */
function asButton(marker: L.Marker, label: string, press: () => void) {
  marker.on('add', () => {
    const element = marker.getElement();
    if (!element) return;
    element.setAttribute('aria-label', label);
    element.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      event.stopPropagation();
      press();
    });
  });
  marker.on('click', press);
}

/** A marker that only shows where something is: named for assistive technology, no action. */
function asLabelledPoint(marker: L.Marker, label: string) {
  marker.on('add', () => {
    const element = marker.getElement();
    if (!element) return;
    element.setAttribute('role', 'img');
    element.setAttribute('aria-label', label);
  });
}

const pointIcon = (className: string, size: number) =>
  L.divIcon({ className, iconSize: [size, size], iconAnchor: [size / 2, size / 2], html: '' });

const clusterIcon = (count: number) => {
  const size = count < 10 ? 34 : count < 100 ? 40 : 48;
  return L.divIcon({
    className: 'sitelog-map-cluster',
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
    html: textElement(count < 1000 ? String(count) : `${Math.floor(count / 1000)}k+`),
  });
};

type PinFeature = PointFeature<{ pin: MapPin }>;

/** The map: tiles, the site, and the pins clustered by supercluster at every zoom. */
export default function MapCanvas({
  tiles,
  pins,
  pinKind,
  site = null,
  onPinSelect,
  interactive = true,
  embedded = true,
  label,
  pinLabel,
  clusterLabel,
  height,
}: MapCanvasProps) {
  const theme = useTheme();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const pinLayerRef = useRef<L.LayerGroup | null>(null);
  const siteLayerRef = useRef<L.LayerGroup | null>(null);
  // The latest callbacks, read by Leaflet's handlers without rebuilding the markers.
  const callbacks = useRef({ onPinSelect, pinLabel, clusterLabel });
  const fitted = useRef(false);
  // First of the effects, so the markers the others make already see this render's callbacks.
  useLayoutEffect(() => {
    callbacks.current = { onPinSelect, pinLabel, clusterLabel };
  });

  const index = useMemo(() => {
    const cluster = new Supercluster<{ pin: MapPin }>({
      radius: CLUSTER_RADIUS_PX,
      maxZoom: MAX_ZOOM - 1,
    });
    cluster.load(
      pins.map((pin): PinFeature => ({
        type: 'Feature',
        properties: { pin },
        geometry: { type: 'Point', coordinates: [pin.longitude, pin.latitude] },
      })),
    );
    return cluster;
  }, [pins]);

  // The map, made once per mount: tiles and the two layers the effects below fill.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, {
      // The tiles' credit is drawn by this component as text (Leaflet's control takes HTML).
      attributionControl: false,
      zoomControl: interactive,
      // On a phone, a one-finger drag over an embedded map scrolls the page (two fingers still
      // pan and zoom it): otherwise a map filling the screen traps the scroll.
      dragging: interactive && !(embedded && L.Browser.mobile),
      touchZoom: interactive,
      doubleClickZoom: interactive,
      boxZoom: interactive,
      keyboard: interactive,
      // Wheel zoom only once the map has been clicked or focused, so scrolling the page over
      // the map scrolls the page.
      scrollWheelZoom: false,
      worldCopyJump: true,
      maxZoom: MAX_ZOOM,
    });
    L.tileLayer(tiles.url, {
      maxZoom: MAX_ZOOM,
      // The page sends no Referer (Referrer-Policy: no-referrer), but tile servers such as
      // OpenStreetMap's ask for one: the tiles carry the app's origin, and nothing more.
      referrerPolicy: 'strict-origin',
    }).addTo(map);
    pinLayerRef.current = L.layerGroup().addTo(map);
    siteLayerRef.current = L.layerGroup().addTo(map);
    if (interactive) {
      map.on('focus', () => map.scrollWheelZoom.enable());
      map.on('blur', () => map.scrollWheelZoom.disable());
    }
    mapRef.current = map;
    // The container may be laid out (or resized) after the map measured it.
    const resize =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => map.invalidateSize());
    resize?.observe(container);
    return () => {
      resize?.disconnect();
      map.remove();
      mapRef.current = null;
      pinLayerRef.current = null;
      siteLayerRef.current = null;
      fitted.current = false;
    };
  }, [tiles.url, interactive, embedded]);

  // The first view: everything there is to show (later refetches keep the user's view).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || fitted.current) return;
    const points: L.LatLngTuple[] = pins.map((pin) => [pin.latitude, pin.longitude]);
    if (site) points.push([site.latitude, site.longitude]);
    const [first] = points;
    if (!first) map.setView([20, 0], 2);
    else if (points.length === 1) map.setView(first, SINGLE_POINT_ZOOM);
    else
      map.fitBounds(L.latLngBounds(points), {
        padding: [32, 32],
        maxZoom: FIT_MAX_ZOOM,
        animate: false,
      });
    fitted.current = true;
  }, [pins, site, tiles.url, interactive, embedded]);

  // The site: its own marker, never clustered.
  useEffect(() => {
    const layer = siteLayerRef.current;
    if (!layer) return;
    layer.clearLayers();
    if (!site) return;
    const marker = L.marker([site.latitude, site.longitude], {
      icon: pointIcon('sitelog-map-site', 24),
      title: interactive ? '' : site.label,
      keyboard: interactive,
      interactive,
      // Under the pins and clusters: zoomed out, the photos taken on site cluster right on top
      // of it, and the cluster is what there is to press.
      zIndexOffset: -1000,
    });
    if (interactive) {
      marker.bindTooltip(textElement(site.label), { direction: 'top', offset: [0, -12] });
      marker.on('add', () => marker.getElement()?.setAttribute('aria-label', site.label));
    } else asLabelledPoint(marker, site.label);
    layer.addLayer(marker);
  }, [site, interactive, tiles.url, embedded]);

  // The pins: clusters and single pins for the current view, redrawn after every move. Markers
  // still shown are kept (so a focused pin keeps focus); the rest are replaced.
  useEffect(() => {
    const map = mapRef.current;
    const layer = pinLayerRef.current;
    if (!map || !layer) return;
    const shown = new Map<string, L.Marker>();

    const makeMarker = (feature: ReturnType<typeof index.getClusters>[number]): L.Marker => {
      const [longitude, latitude] = feature.geometry.coordinates as [number, number];
      const properties = feature.properties;
      if ('cluster' in properties && properties.cluster) {
        const count = properties.point_count;
        const text = callbacks.current.clusterLabel(count);
        const marker = L.marker([latitude, longitude], {
          icon: clusterIcon(count),
          title: text,
          keyboard: interactive,
          interactive,
          zIndexOffset: 500,
        });
        if (interactive)
          asButton(marker, text, () => {
            const zoom = Math.min(index.getClusterExpansionZoom(properties.cluster_id), MAX_ZOOM);
            map.setView([latitude, longitude], zoom);
          });
        else asLabelledPoint(marker, text);
        return marker;
      }
      const { pin } = properties as { pin: MapPin };
      const text = callbacks.current.pinLabel(pin);
      const selectable = interactive && callbacks.current.onPinSelect !== undefined;
      const marker = L.marker([latitude, longitude], {
        icon: pointIcon(
          `sitelog-map-pin sitelog-map-pin--${pinKind}`,
          pinKind === 'project' ? 22 : 18,
        ),
        // Named by aria-label; a selectable pin shows its name in a tooltip on hover and focus
        // (a title would show a second one).
        title: selectable ? '' : text,
        keyboard: selectable,
        interactive: selectable,
        riseOnHover: true,
      });
      if (selectable) {
        marker.bindTooltip(textElement(pin.label), { direction: 'top', offset: [0, -10] });
        asButton(marker, text, () => callbacks.current.onPinSelect?.(pin.id));
      } else asLabelledPoint(marker, text);
      return marker;
    };

    const draw = () => {
      const bounds = map.getBounds();
      const features = index.getClusters(
        [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()],
        Math.round(map.getZoom()),
      );
      const keys = new Set<string>();
      for (const feature of features) {
        const properties = feature.properties;
        const key =
          'cluster' in properties && properties.cluster
            ? `cluster:${properties.cluster_id}`
            : `pin:${(properties as { pin: MapPin }).pin.id}`;
        keys.add(key);
        if (!shown.has(key)) {
          const marker = makeMarker(feature);
          shown.set(key, marker);
          layer.addLayer(marker);
        }
      }
      for (const [key, marker] of shown) {
        if (keys.has(key)) continue;
        // A cluster pressed from the keyboard goes away as the map zooms in: keep focus in the
        // map rather than losing it to the page.
        if (marker.getElement()?.contains(document.activeElement))
          map.getContainer().focus({ preventScroll: true });
        layer.removeLayer(marker);
        shown.delete(key);
      }
    };

    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      layer.clearLayers();
    };
  }, [index, pinKind, interactive, tiles.url, embedded]);

  const { palette } = theme;
  const focusRing = { outline: `3px solid ${palette.text.primary}`, outlineOffset: 2 };
  return (
    <Box
      sx={{
        position: 'relative',
        height,
        borderRadius: 1,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
        // The map stays below the app's bars, dialogs and menus (Leaflet's panes go up to 1000).
        isolation: 'isolate',
        zIndex: 0,
        '& .leaflet-container': { fontFamily: theme.typography.fontFamily, bgcolor: 'grey.200' },
        '& .leaflet-container:focus-visible': { ...focusRing, outlineOffset: -3 },
        '& .leaflet-marker-icon:focus-visible': focusRing,
        '& .sitelog-map-pin': {
          borderRadius: '50%',
          bgcolor: palette.primary.main,
          border: '3px solid #fff',
          boxShadow: '0 1px 4px rgba(0, 0, 0, 0.45)',
          boxSizing: 'border-box',
        },
        '& .sitelog-map-pin--project::after': {
          content: '""',
          position: 'absolute',
          inset: 5,
          borderRadius: '50%',
          bgcolor: '#fff',
        },
        '& .sitelog-map-site': {
          bgcolor: palette.mode === 'dark' ? '#1C1917' : palette.secondary.main,
          border: `4px solid ${palette.primary.main}`,
          outlineColor: palette.text.primary,
          borderRadius: '4px',
          transform: 'rotate(45deg)',
          boxShadow: '0 1px 5px rgba(0, 0, 0, 0.5)',
          boxSizing: 'border-box',
        },
        '& .sitelog-map-cluster': {
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          borderRadius: '50%',
          bgcolor: palette.primary.main,
          color: palette.primary.contrastText,
          border: '3px solid #fff',
          boxShadow: `0 0 0 5px ${palette.primary.main}55, 0 1px 4px rgba(0, 0, 0, 0.45)`,
          fontWeight: 700,
          fontSize: 14,
          boxSizing: 'border-box',
        },
      }}
    >
      <Box
        ref={containerRef}
        role={interactive ? 'region' : 'img'}
        aria-label={label}
        data-map-kind={pinKind}
        sx={{ position: 'absolute', inset: 0 }}
      />
      <Box
        data-map-attribution
        sx={{
          position: 'absolute',
          right: 0,
          bottom: 0,
          zIndex: 1000,
          px: 0.75,
          py: 0.25,
          borderTopLeftRadius: 4,
          bgcolor: 'rgba(255, 255, 255, 0.85)',
          color: '#1C1917',
          fontSize: 12,
          lineHeight: 1.5,
          maxWidth: '100%',
          overflowWrap: 'anywhere',
        }}
      >
        {tiles.attributionUrl ? (
          <Link
            href={tiles.attributionUrl}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ color: '#1C1917' }}
          >
            {tiles.attribution}
          </Link>
        ) : (
          tiles.attribution
        )}
      </Box>
    </Box>
  );
}
