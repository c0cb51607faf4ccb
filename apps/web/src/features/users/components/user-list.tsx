import Close from '@mui/icons-material/Close';
import MailOutline from '@mui/icons-material/MailOutline';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { InvitationLink, User } from '@sitelog/shared';
import { useEffect, useRef, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { useActivateUser } from '../api/activate-user';
import { useUsers } from '../api/get-users';
import { useReinviteUser } from '../api/reinvite-user';
import { DeactivateUserDialog } from './deactivate-user-dialog';
import { InvitationLinkDialog } from './invitation-link-dialog';

const fullName = (user: Pick<User, 'firstname' | 'lastname'>) =>
  `${user.firstname} ${user.lastname}`;

/** "Link valid until …" or "Link expired …" for a member who has not accepted their invitation. */
function invitationNote(user: User): string | null {
  if (!user.invitePending || !user.inviteExpiresAt) return null;
  const when = formatDateTime(user.inviteExpiresAt);
  return Date.parse(user.inviteExpiresAt) > Date.now()
    ? `Link valid until ${when}`
    : `Link expired ${when}`;
}

interface UserRowProps {
  user: User;
  onDeactivate: () => void;
  onActivate: () => void;
  onNewLink: () => void;
  activating: boolean;
  linking: boolean;
}

/**
 * One account: an X to deactivate an active member (asked first), ACTIVATE for a deactivated
 * one, and NEW LINK for an active member who has not accepted their invitation yet. The row's
 * main action carries `data-user-action`, so the focus can move to it after a change.
 */
function UserRow({ user, onDeactivate, onActivate, onNewLink, activating, linking }: UserRowProps) {
  const name = fullName(user);
  const note = invitationNote(user);
  const action = user.isActive ? (
    <Tooltip title="Deactivate">
      <IconButton edge="end" aria-label={`Deactivate ${name}`} onClick={onDeactivate}>
        <Close />
      </IconButton>
    </Tooltip>
  ) : (
    <Button
      size="small"
      variant="outlined"
      aria-label={`Activate ${name}`}
      onClick={onActivate}
      loading={activating}
    >
      Activate
    </Button>
  );
  return (
    <ListItem
      divider
      data-state={user.isActive ? 'active' : 'deactivated'}
      sx={{
        gap: 1,
        pr: 2,
        flexWrap: { xs: 'wrap', sm: 'nowrap' },
        ...(user.isActive
          ? {}
          : // Shaded and in the secondary text colour; not fainter than that, which would
            // fall below the contrast text needs (axe).
            { bgcolor: 'action.hover', color: 'text.secondary' }),
      }}
    >
      <ListItemText
        sx={{ minWidth: 0, flex: '1 1 12rem' }}
        primary={
          <Stack
            direction="row"
            spacing={1}
            component="span"
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
          >
            <span className="user-name">{name}</span>
            {user.isActive ? null : (
              <Chip label="Deactivated" size="small" variant="outlined" component="span" />
            )}
            {user.invitePending ? (
              <Chip
                icon={<MailOutline />}
                label="Invitation pending"
                size="small"
                variant="outlined"
                component="span"
              />
            ) : null}
          </Stack>
        }
        secondary={
          <>
            {user.email}
            {note ? (
              <>
                <br />
                {note}
              </>
            ) : null}
          </>
        }
        slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', ml: 'auto' }}>
        {user.invitePending && user.isActive ? (
          <Button
            size="small"
            variant="outlined"
            aria-label={`New invitation link for ${name}`}
            data-new-link={user.id}
            onClick={onNewLink}
            loading={linking}
          >
            New link
          </Button>
        ) : null}
        <span data-user-action={user.id} style={{ display: 'contents' }}>
          {action}
        </span>
      </Stack>
    </ListItem>
  );
}

/**
 * The admin's List of non-admin accounts (admins are hidden by the server). Deactivated rows are
 * shaded and say so in words, as do members who have not accepted their invitation; a change
 * replaces the row at once, without a reload. Deactivating asks first (DeactivateUserDialog); a
 * new invitation link is shown once in the link dialog.
 */
export function UserList() {
  const users = useUsers();
  const activate = useActivateUser();
  const reinvite = useReinviteUser();
  const [confirming, setConfirming] = useState<User | null>(null);
  const [link, setLink] = useState<InvitationLink | null>(null);
  // After a dialog closes, the focus goes back to the row: after deactivating, to its action
  // (X, or ACTIVATE once deactivated: the button that opened the dialog may be gone); after a
  // new link, to its NEW LINK (busy, so disabled, while the link was made: the focus left it).
  const focusTarget = useRef<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (focusTarget.current === null) return;
    const target = listRef.current?.querySelector<HTMLElement>(focusTarget.current);
    if (!target) return;
    target.focus();
    focusTarget.current = null;
  });

  if (users.isPending) return <ListSkeleton label="Loading users…" />;
  if (users.isError) {
    return (
      <ErrorState
        error={users.error}
        title="Could not load the users"
        onRetry={() => void users.refetch()}
        retrying={users.isFetching}
      />
    );
  }
  if (users.data.length === 0) {
    return (
      <EmptyState
        message="No users yet"
        description="Invite the first member with the form above."
      />
    );
  }
  const failed = [activate, reinvite].find((m) => m.isError);
  return (
    <Stack spacing={1.5}>
      {failed ? (
        <Alert severity="error" role="alert">
          {errorMessage(failed.error)}
        </Alert>
      ) : null}
      <Paper variant="outlined">
        <List disablePadding aria-label="Users" ref={listRef}>
          {users.data.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              onDeactivate={() => {
                activate.reset();
                reinvite.reset();
                setConfirming(user);
              }}
              onActivate={() => {
                reinvite.reset();
                activate.mutate(user.id);
              }}
              onNewLink={() => {
                activate.reset();
                reinvite.mutate(user.id, { onSuccess: setLink });
              }}
              activating={activate.isPending && activate.variables === user.id}
              linking={reinvite.isPending && reinvite.variables === user.id}
            />
          ))}
        </List>
      </Paper>
      <DeactivateUserDialog
        user={confirming}
        onClose={() => {
          focusTarget.current = confirming ? `[data-user-action="${confirming.id}"] button` : null;
          setConfirming(null);
        }}
      />
      <InvitationLinkDialog
        link={link}
        onClose={() => {
          // Its action when NEW LINK is gone (accepted meanwhile): the first of the two there.
          focusTarget.current = link
            ? `[data-new-link="${link.user.id}"], [data-user-action="${link.user.id}"] button`
            : null;
          setLink(null);
        }}
      />
    </Stack>
  );
}
