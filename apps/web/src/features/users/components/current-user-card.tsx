import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface CurrentUserCardProps {
  user: { firstname: string; lastname: string; email: string };
  /** Buttons under the details, e.g. LOGOUT. */
  actions?: ReactNode;
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="body1" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The signed-in user's card on /profile: first name, last name, email (spec §2). */
export function CurrentUserCard({ user, actions }: CurrentUserCardProps) {
  const initials = `${user.firstname.charAt(0)}${user.lastname.charAt(0)}`.toUpperCase();
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Avatar
            aria-hidden
            sx={{ bgcolor: 'primary.main', width: 56, height: 56, fontSize: '1.3rem' }}
          >
            {initials}
          </Avatar>
          <Stack component="dl" spacing={1.5} sx={{ m: 0, minWidth: 0 }}>
            <Detail label="First name" value={user.firstname} />
            <Detail label="Last name" value={user.lastname} />
            <Detail label="Email" value={user.email} />
          </Stack>
        </Stack>
      </CardContent>
      {actions ? <CardActions sx={{ px: 2, pb: 2 }}>{actions}</CardActions> : null}
    </Card>
  );
}
