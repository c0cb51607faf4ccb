import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

interface SectionProps {
  title: ReactNode;
  /** A link or button beside the heading, e.g. "See all". */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled part of a page (h2), labelled by its heading for assistive technology. */
export function Section({ title, action, children }: SectionProps) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Stack
        direction="row"
        spacing={2}
        // Tall enough for a small button, so an action that appears once data has loaded (e.g.
        // "See all") does not push the section down.
        sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5, minHeight: 32 }}
      >
        <Typography id={headingId} variant="h2">
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Box>
  );
}
