import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { limits, type Invitation } from '@sitelog/shared';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { PasswordStrength } from '@/components/password-strength';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/session';
import { useOnline } from '@/lib/use-online';
import { useAcceptInvitation } from '../api/accept-invitation';
import { useInvitation } from '../api/get-invitation';

export const PASSWORDS_DIFFER = 'The passwords do not match.';

/**
 * A link the server says cannot be used: unknown (404), or used, expired or its account
 * deactivated (410). On opening it, a 400 too (the link was cut short); on accepting, a 400 is
 * about the password.
 */
const isDeadLink = (error: unknown, statuses = [404, 410]) =>
  error instanceof ApiError && statuses.includes(error.status);

/** Why the link cannot be used, in the server's words, with the way to sign in. No form. */
function DeadLink({ error }: { error: unknown }) {
  return (
    <Stack spacing={2}>
      <Typography variant="h1">This link cannot be used</Typography>
      <Alert severity="warning">{errorMessage(error)}</Alert>
      <Typography>
        Already have a password?{' '}
        <Link component={RouterLink} to={paths.login}>
          Sign in
        </Link>
      </Typography>
    </Stack>
  );
}

interface SetPasswordFormProps {
  invitation: Invitation;
  sending: boolean;
  /** The server's refusal of the last attempt, if any. */
  error: unknown;
  onSubmit: (password: string) => void;
  /** Typing again clears the refusal. */
  onEdit: () => void;
}

/**
 * Password twice and SET PASSWORD AND SIGN IN. The only client check is that both were typed the
 * same; under the password the strength meter runs the server's policy (the same as the profile
 * page), advising without blocking; the server decides and its message is shown under the form.
 */
function SetPasswordForm({ invitation, sending, error, onSubmit, onEdit }: SetPasswordFormProps) {
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [show, setShow] = useState(false);
  const [checkMatch, setCheckMatch] = useState(false);
  const [strengthWanted, setStrengthWanted] = useState(false);
  const session = useSession();
  const online = useOnline();
  const complete = values.password !== '' && values.confirm !== '';
  const mismatch = checkMatch && values.confirm !== '' && values.password !== values.confirm;
  const name = `${invitation.firstname} ${invitation.lastname}`;

  const update = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (error) onEdit();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || sending) return;
    if (values.password !== values.confirm) {
      setCheckMatch(true);
      return;
    }
    onSubmit(values.password);
  };
  const passwordField = (field: keyof typeof values, label: string) => ({
    label,
    name: field,
    type: show ? 'text' : 'password',
    value: values[field],
    onChange: update(field),
    disabled: sending,
    autoComplete: 'new-password',
    fullWidth: true,
    slotProps: { htmlInput: { maxLength: limits.passwordMax, 'aria-required': true } },
  });

  return (
    <Stack spacing={2.5}>
      <Box>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          Welcome, {invitation.firstname}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {name}, you are invited to Sitelog. Choose a password to sign in as{' '}
          <strong>{invitation.email}</strong>. This link works once, until{' '}
          {formatDateTime(invitation.expiresAt)}.
        </Typography>
      </Box>
      {online ? null : (
        <Alert severity="warning" role="status">
          You are offline. Setting your password needs a connection: it goes ahead when the
          connection returns.
        </Alert>
      )}
      {session && session.user.email !== invitation.email ? (
        <Alert severity="info">
          You are signed in as {session.user.firstname} {session.user.lastname} on this browser.
          Setting this password signs you in as {name} instead.
        </Alert>
      ) : null}
      <Stack component="form" noValidate onSubmit={submit} spacing={2} aria-label="Set password">
        {/* Lets password managers file the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={invitation.email}
          readOnly
          hidden
        />
        <Box>
          <TextField
            {...passwordField('password', 'New password')}
            onFocus={() => setStrengthWanted(true)}
            helperText={`At least ${limits.passwordMin} characters; a long passphrase is best.`}
          />
          <PasswordStrength password={values.password} owner={invitation} load={strengthWanted} />
        </Box>
        <TextField
          {...passwordField('confirm', 'Confirm password')}
          onBlur={() => setCheckMatch(values.confirm !== '')}
          error={mismatch}
          helperText={mismatch ? PASSWORDS_DIFFER : undefined}
        />
        <FormControlLabel
          control={<Checkbox checked={show} onChange={(event) => setShow(event.target.checked)} />}
          label="Show passwords"
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={!complete}
          loading={sending}
        >
          Set password and sign in
        </Button>
        {error && !sending ? (
          <Alert severity="error" role="alert">
            {errorMessage(error)}
          </Alert>
        ) : null}
      </Stack>
    </Stack>
  );
}

interface AcceptInvitationProps {
  token: string;
  /** Called once the password is set and the member is signed in (the page moves on). */
  onSignedIn: () => void;
}

/**
 * The invited member's side of an invitation link: who it is for and the password form; a link
 * that cannot be used (unknown, used, expired, its account deactivated) says why, with no form.
 * Accepting signs in, which drops every cached answer: the link is not read again after that
 * (it is used now), so the page does not flash "already used" on its way to Home.
 */
export function AcceptInvitation({ token, onSignedIn }: AcceptInvitationProps) {
  const accept = useAcceptInvitation(token);
  const sent = accept.isPending || accept.isSuccess;
  const invitation = useInvitation(token, { enabled: !sent });

  // Signed in (or about to be: the session change has already dropped the cached link).
  if (accept.isSuccess || (accept.isPending && !invitation.data))
    return <LoadingState label="Signed in. Opening Home…" />;
  if (accept.isError && isDeadLink(accept.error)) return <DeadLink error={accept.error} />;
  if (invitation.data)
    return (
      <SetPasswordForm
        invitation={invitation.data}
        sending={accept.isPending}
        error={accept.error}
        onSubmit={(password) => accept.mutate({ password }, { onSuccess: onSignedIn })}
        onEdit={() => accept.reset()}
      />
    );
  if (invitation.isError) {
    if (isDeadLink(invitation.error, [400, 404, 410])) return <DeadLink error={invitation.error} />;
    return (
      <Stack spacing={2}>
        <Typography variant="h1">Invitation</Typography>
        <ErrorState
          error={invitation.error}
          title="Could not open the invitation"
          onRetry={() => void invitation.refetch()}
          retrying={invitation.isFetching}
        />
      </Stack>
    );
  }
  return <LoadingState label="Opening the invitation…" />;
}
