import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import { readLoginRedirectState } from '@/lib/login-redirect';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOnline } from '@/lib/use-online';
import { LoginForm } from '@/features/auth/components/login-form';

/** /login: the only page open to signed-out users. */
export function LoginPage() {
  useDocumentTitle('Login');
  const location = useLocation();
  const { adminRequired } = readLoginRedirectState(location.state);
  const session = useSession();
  const online = useOnline();

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
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Box>
            <Typography
              variant="overline"
              component="p"
              color="primary"
              sx={{ fontWeight: 700, letterSpacing: '0.12em' }}
            >
              Sitelog
            </Typography>
            <Typography variant="h1">Sign in</Typography>
          </Box>
          {adminRequired ? (
            <Alert severity="info">
              The page you opened needs an admin account. Sign in as an admin to continue.
              {session ? (
                <>
                  {' '}
                  <Link component={RouterLink} to={paths.home} color="inherit">
                    Back to Home
                  </Link>
                </>
              ) : null}
            </Alert>
          ) : null}
          {online ? null : (
            <Alert severity="warning" role="status">
              You are offline. Signing in needs a connection: it goes ahead when the connection
              returns.
            </Alert>
          )}
          <LoginForm />
        </Stack>
      </Paper>
    </Box>
  );
}
