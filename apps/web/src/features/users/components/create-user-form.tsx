import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { limits, type NewUser } from '@sitelog/shared';
import { useState, type FormEvent } from 'react';
import { PasswordStrength } from '@/components/password-strength';
import { errorMessage } from '@/lib/api-client';
import { useCreateUser } from '../api/create-user';

const empty: NewUser = { firstname: '', lastname: '', email: '', password: '' };

/**
 * The admin's Create form: CREATE stays disabled until first name, last name, email and password
 * are all filled (spec §5); the server validates (email, password policy) and its message is
 * shown next to CREATE (spec §8). A meter under the password shows its strength and why the
 * server would refuse it, without blocking CREATE. The fields are cleared after a success.
 */
export function CreateUserForm() {
  const [values, setValues] = useState<NewUser>(empty);
  const [showPassword, setShowPassword] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  // The estimator's dictionaries are fetched once the password field gets focus.
  const [strengthWanted, setStrengthWanted] = useState(false);
  const create = useCreateUser();
  const complete =
    values.firstname.trim() !== '' &&
    values.lastname.trim() !== '' &&
    values.email.trim() !== '' &&
    values.password !== '';

  const change = (field: keyof NewUser) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setCreated(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || create.isPending) return;
    create.mutate(
      { user: values },
      {
        onSuccess: (user) => {
          setValues(empty);
          setShowPassword(false);
          setCreated(`${user.firstname} ${user.lastname} can now sign in with ${user.email}.`);
        },
      },
    );
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Create user">
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
          mb: 2,
        }}
      >
        <TextField
          label="First name"
          name="firstname"
          value={values.firstname}
          onChange={change('firstname')}
          disabled={create.isPending}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: limits.personNameMax, 'aria-required': true } }}
        />
        <TextField
          label="Last name"
          name="lastname"
          value={values.lastname}
          onChange={change('lastname')}
          disabled={create.isPending}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: limits.personNameMax, 'aria-required': true } }}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          value={values.email}
          onChange={change('email')}
          disabled={create.isPending}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: limits.emailMax, 'aria-required': true } }}
        />
        <Box>
          <TextField
            label="Password"
            name="password"
            type={showPassword ? 'text' : 'password'}
            value={values.password}
            onChange={change('password')}
            onFocus={() => setStrengthWanted(true)}
            disabled={create.isPending}
            autoComplete="new-password"
            fullWidth
            helperText={`At least ${limits.passwordMin} characters; a long passphrase is best.`}
            slotProps={{
              htmlInput: { maxLength: limits.passwordMax, 'aria-required': true },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      edge="end"
                      aria-label={showPassword ? 'Hide password' : 'Show password'}
                      onClick={() => setShowPassword((shown) => !shown)}
                    >
                      {showPassword ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <PasswordStrength password={values.password} owner={values} load={strengthWanted} />
        </Box>
      </Box>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Button
          type="submit"
          variant="contained"
          disabled={!complete}
          loading={create.isPending}
          sx={{ flexShrink: 0 }}
        >
          Create
        </Button>
        {create.isError && !create.isPending ? (
          <Typography role="alert" color="error" variant="body2">
            {errorMessage(create.error)}
          </Typography>
        ) : null}
        {created ? (
          <Typography role="status" color="success.main" variant="body2">
            {created}
          </Typography>
        ) : null}
      </Stack>
    </Box>
  );
}
