import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Profile } from '@sitelog/shared';

/** Team info: active members, total members, total projects, total uploads (spec §2). */
export function TeamInfo({ profiles }: { profiles: Profile[] }) {
  const facts = [
    { label: 'Active members', value: profiles.filter((p) => p.isActive).length },
    { label: 'Total members', value: profiles.length },
    { label: 'Total projects', value: profiles.reduce((sum, p) => sum + p.projectsCount, 0) },
    { label: 'Total uploads', value: profiles.reduce((sum, p) => sum + p.uploadsCount, 0) },
  ];
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
      }}
    >
      {facts.map((fact) => (
        <Paper key={fact.label} variant="outlined" sx={{ p: 2, minWidth: 0 }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {fact.label}
          </Typography>
          <Typography component="dd" variant="h4" sx={{ m: 0, fontWeight: 600 }}>
            {fact.value}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
