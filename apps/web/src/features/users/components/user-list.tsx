import Close from '@mui/icons-material/Close';
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
import type { User } from '@sitelog/shared';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { errorMessage } from '@/lib/api-client';
import { useActivateUser } from '../api/activate-user';
import { useDeactivateUser } from '../api/deactivate-user';
import { useUsers } from '../api/get-users';

const fullName = (user: Pick<User, 'firstname' | 'lastname'>) =>
  `${user.firstname} ${user.lastname}`;

interface UserRowProps {
  user: User;
  onDeactivate: () => void;
  onActivate: () => void;
  pending: boolean;
}

/** One account: an X to deactivate an active member, ACTIVATE for a deactivated one. */
function UserRow({ user, onDeactivate, onActivate, pending }: UserRowProps) {
  const name = fullName(user);
  const action = user.isActive ? (
    <Tooltip title="Deactivate">
      <IconButton
        edge="end"
        aria-label={`Deactivate ${name}`}
        onClick={onDeactivate}
        disabled={pending}
      >
        <Close />
      </IconButton>
    </Tooltip>
  ) : (
    <Button
      size="small"
      variant="outlined"
      aria-label={`Activate ${name}`}
      onClick={onActivate}
      loading={pending}
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
        ...(user.isActive
          ? {}
          : {
              bgcolor: 'action.hover',
              color: 'text.secondary',
              '& .user-name': { opacity: 0.75 },
            }),
      }}
    >
      <ListItemText
        sx={{ minWidth: 0 }}
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
          </Stack>
        }
        secondary={user.email}
        slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
      />
      {action}
    </ListItem>
  );
}

/**
 * The admin's List of non-admin accounts (admins are hidden by the server). Deactivated rows are
 * shaded and say so in words; a change replaces the row at once, without a reload.
 */
export function UserList() {
  const users = useUsers();
  const deactivate = useDeactivateUser();
  const activate = useActivateUser();

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
        description="Create the first member with the form above."
      />
    );
  }
  const failed = [deactivate, activate].find((m) => m.isError);
  return (
    <Stack spacing={1.5}>
      {failed ? (
        <Alert severity="error" role="alert">
          {errorMessage(failed.error)}
        </Alert>
      ) : null}
      <Paper variant="outlined">
        <List disablePadding aria-label="Users">
          {users.data.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              onDeactivate={() => {
                activate.reset();
                deactivate.mutate(user.id);
              }}
              onActivate={() => {
                deactivate.reset();
                activate.mutate(user.id);
              }}
              pending={
                (deactivate.isPending && deactivate.variables === user.id) ||
                (activate.isPending && activate.variables === user.id)
              }
            />
          ))}
        </List>
      </Paper>
    </Stack>
  );
}
