import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { Upload } from '@sitelog/shared';

function openStreetMapUrl(latitude: number, longitude: number): string {
  const lat = latitude.toFixed(6);
  const lon = longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
}

/** Where a photo was taken, for the viewer's info panel; nothing when it has no GPS. */
export function PhotoPlace({ upload }: { upload: Upload }) {
  if (upload.latitude === null || upload.longitude === null) return 'The photo does not say';
  const { latitude, longitude } = upload;
  return (
    <Stack spacing={1} component="span">
      <Link href={openStreetMapUrl(latitude, longitude)} target="_blank" rel="noopener noreferrer">
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </Link>
    </Stack>
  );
}
