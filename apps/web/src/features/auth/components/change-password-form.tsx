import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { limits } from '@sitelog/shared';
import { useState, type FormEvent } from 'react';
import { PasswordStrength } from '@/components/password-strength';
import { errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useChangePassword } from '../api/change-password';

const empty = { current: '', next: '', confirm: '' };
type Field = keyof typeof empty;

export const PASSWORDS_DIFFER = 'The new passwords do not match.';

interface ChangePasswordFormProps {
  /** The signed-in user's email, so password managers know which account changed. */
  email: string;
}

/**
 * Current password, new password twice, CHANGE PASSWORD. The button stays disabled until all
 * three are filled; the only client check is that the new password was typed the same twice.
 * Under the new password a meter shows its strength and why it would be refused; it never
 * blocks. The server checks the rest (current password, policy) and its message is shown next
 * to the button. After a success the fields are cleared.
 */
export function ChangePasswordForm({ email }: ChangePasswordFormProps) {
  const [values, setValues] = useState(empty);
  const [showPasswords, setShowPasswords] = useState(false);
  // The mismatch message waits until the confirmation is left or sent, not every keystroke.
  const [checkMatch, setCheckMatch] = useState(false);
  const [changed, setChanged] = useState(false);
  // The estimator's dictionaries are fetched once the new password field gets focus.
  const [strengthWanted, setStrengthWanted] = useState(false);
  const { firstname, lastname } = useCurrentUser();
  const change = useChangePassword();

  const complete = values.current !== '' && values.next !== '' && values.confirm !== '';
  const mismatch = checkMatch && values.confirm !== '' && values.next !== values.confirm;

  const update = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setChanged(false);
    if (change.isError) change.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || change.isPending) return;
    if (values.next !== values.confirm) {
      setCheckMatch(true);
      return;
    }
    change.mutate(
      { password: { current: values.current, next: values.next } },
      {
        onSuccess: () => {
          setValues(empty);
          setCheckMatch(false);
          setShowPasswords(false);
          setChanged(true);
        },
      },
    );
  };

  const passwordField = (field: Field, label: string, autoComplete: string) => ({
    label,
    name: field,
    type: showPasswords ? 'text' : 'password',
    value: values[field],
    onChange: update(field),
    disabled: change.isPending,
    autoComplete,
    fullWidth: true,
    slotProps: { htmlInput: { maxLength: limits.passwordMax, 'aria-required': true } },
  });

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Change password">
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <Stack spacing={2} sx={{ maxWidth: 560, mb: 2 }}>
        <TextField {...passwordField('current', 'Current password', 'current-password')} />
        <Box>
          <TextField
            {...passwordField('next', 'New password', 'new-password')}
            onFocus={() => setStrengthWanted(true)}
            helperText={`At least ${limits.passwordMin} characters; a long passphrase is best.`}
          />
          <PasswordStrength
            password={values.next}
            owner={{ firstname, lastname, email }}
            load={strengthWanted}
          />
        </Box>
        <TextField
          {...passwordField('confirm', 'Confirm new password', 'new-password')}
          onBlur={() => setCheckMatch(values.confirm !== '')}
          error={mismatch}
          helperText={mismatch ? PASSWORDS_DIFFER : undefined}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={showPasswords}
              onChange={(event) => setShowPasswords(event.target.checked)}
            />
          }
          label="Show passwords"
        />
      </Stack>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}
      >
        <Button
          type="submit"
          variant="contained"
          disabled={!complete}
          loading={change.isPending}
          sx={{ flexShrink: 0 }}
        >
          Change password
        </Button>
        {change.isError && !change.isPending ? (
          <Typography role="alert" color="error" variant="body2">
            {errorMessage(change.error)}
          </Typography>
        ) : null}
        {changed ? (
          <Typography role="status" color="success.main" variant="body2">
            Password changed.
          </Typography>
        ) : null}
      </Stack>
    </Box>
  );
}
