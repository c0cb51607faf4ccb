import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A project's location under its name in a card list: a pin and the text, wrapped anywhere. */
export function LocationLine({ location }: { location: string }) {
  return (
    <Stack
      direction="row"
      spacing={0.5}
      sx={{ alignItems: 'flex-start', color: 'text.secondary', mt: 0.25 }}
    >
      <PlaceOutlined aria-hidden sx={{ fontSize: 16, mt: '2px', flexShrink: 0 }} />
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {location}
      </Typography>
    </Stack>
  );
}
