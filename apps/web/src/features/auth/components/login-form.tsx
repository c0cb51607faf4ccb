import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useLoginHints } from '../api/get-login-hints';
import { useLogin } from '../api/login';

/**
 * Email + password + LOGIN. No client-side checks (spec §5): whatever is typed goes to the
 * server, and the server's message is shown below the form (spec §8). The fields start with the
 * sample account while the server offers one.
 */
export function LoginForm() {
  const hints = useLoginHints();
  const login = useLogin();
  // null = not typed yet, so the sample account (once loaded) shows through.
  const [typedEmail, setTypedEmail] = useState<string | null>(null);
  const [typedPassword, setTypedPassword] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);

  const sample = hints.data?.sample ?? null;
  const email = typedEmail ?? sample?.email ?? '';
  const password = typedPassword ?? sample?.password ?? '';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate({ login: { email, password } });
  };

  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Login">
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setTypedEmail(event.target.value)}
        fullWidth
        slotProps={{ htmlInput: { inputMode: 'email', autoCapitalize: 'none', spellCheck: false } }}
      />
      <TextField
        label="Password"
        name="password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        value={password}
        onChange={(event) => setTypedPassword(event.target.value)}
        fullWidth
        slotProps={{
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  aria-label={showPassword ? 'Hide password' : 'Show password'}
                  onClick={() => setShowPassword((shown) => !shown)}
                  edge="end"
                >
                  {showPassword ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <Button type="submit" variant="contained" size="large" fullWidth loading={login.isPending}>
        Login
      </Button>
      {login.isError && !login.isPending ? (
        <Alert severity="error" role="alert">
          {errorMessage(login.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}
