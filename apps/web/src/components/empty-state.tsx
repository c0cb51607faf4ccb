import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface EmptyStateProps {
  message: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  /** The next thing to do, e.g. a button to create the first item. */
  action?: ReactNode;
}

/** Nothing to show yet, and what to do about it. */
export function EmptyState({ message, description, icon, action }: EmptyStateProps) {
  return (
    <Paper
      variant="outlined"
      sx={{ px: 3, py: 4, textAlign: 'center', bgcolor: 'background.paper' }}
    >
      <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
        {icon ? (
          <Stack aria-hidden sx={{ color: 'text.secondary', '& svg': { fontSize: 40 } }}>
            {icon}
          </Stack>
        ) : null}
        <Typography variant="body1" sx={{ fontWeight: 500 }}>
          {message}
        </Typography>
        {description ? (
          <Typography variant="body2" color="text.secondary">
            {description}
          </Typography>
        ) : null}
        {action}
      </Stack>
    </Paper>
  );
}
