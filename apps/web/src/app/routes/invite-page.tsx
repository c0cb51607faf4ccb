import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate, useParams } from 'react-router';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { AcceptInvitation } from '@/features/auth/components/accept-invitation';

/**
 * /invite/:token, open to anyone with the link (outside the sign-in guard, like /login): the
 * invited member chooses their password and lands on Home signed in.
 */
export function InvitePage() {
  useDocumentTitle('Invitation');
  const { token = '' } = useParams();
  const navigate = useNavigate();

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 4,
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Typography
            variant="overline"
            component="p"
            color="primary"
            sx={{ fontWeight: 700, letterSpacing: '0.12em', lineHeight: 1 }}
          >
            Sitelog
          </Typography>
          <AcceptInvitation
            token={token}
            onSignedIn={() => void navigate(paths.home, { replace: true })}
          />
        </Stack>
      </Paper>
    </Box>
  );
}
