import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { INVITATION_DAYS, limits, type InvitationLink } from '@sitelog/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useInviteUser } from '../api/invite-user';
import { InvitationLinkDialog } from './invitation-link-dialog';

const empty = { firstname: '', lastname: '', email: '' };
type Field = keyof typeof empty;

/**
 * The admin's default way to add a member: first name, last name and email, then INVITE. The
 * server makes the account and answers a one-time link, shown once in a dialog to copy and send;
 * the member chooses their own password with it. INVITE waits for all three fields; the server
 * checks them and its message is shown next to the button. The fields are cleared after a
 * success.
 */
export function InviteUserForm() {
  const [values, setValues] = useState(empty);
  const [link, setLink] = useState<InvitationLink | null>(null);
  const invite = useInviteUser();
  // Once the link's dialog closes, the focus goes to First name, for the next invitation.
  const firstName = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (link !== null || !refocus.current) return;
    refocus.current = false;
    firstName.current?.focus();
  }, [link]);
  const complete = Object.values(values).every((value) => value.trim() !== '');

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (invite.isError) invite.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || invite.isPending) return;
    invite.mutate(
      { user: values },
      {
        onSuccess: (answer) => {
          setValues(empty);
          setLink(answer);
        },
      },
    );
  };

  const field = (name: Field, label: string, max: number) => ({
    label,
    name,
    value: values[name],
    onChange: change(name),
    disabled: invite.isPending,
    autoComplete: 'off',
    slotProps: { htmlInput: { maxLength: max, 'aria-required': true } },
  });

  return (
    <>
      <Box component="form" noValidate onSubmit={submit} aria-label="Invite member">
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          They get a link, valid for {INVITATION_DAYS} days, where they choose their own password.
        </Typography>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
            mb: 2,
          }}
        >
          <TextField
            {...field('firstname', 'First name', limits.personNameMax)}
            inputRef={firstName}
          />
          <TextField {...field('lastname', 'Last name', limits.personNameMax)} />
          <TextField
            {...field('email', 'Email', limits.emailMax)}
            type="email"
            sx={{ gridColumn: { sm: '1 / -1' } }}
          />
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
            loading={invite.isPending}
            sx={{ flexShrink: 0 }}
          >
            Invite member
          </Button>
          {invite.isError && !invite.isPending ? (
            <Typography role="alert" color="error" variant="body2">
              {errorMessage(invite.error)}
            </Typography>
          ) : null}
        </Stack>
      </Box>
      <InvitationLinkDialog
        link={link}
        onClose={() => {
          refocus.current = true;
          setLink(null);
        }}
      />
    </>
  );
}
