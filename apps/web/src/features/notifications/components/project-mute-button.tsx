import NotificationsOffOutlined from '@mui/icons-material/NotificationsOffOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useProjectMute } from '../api/get-project-mute';
import { useSetProjectMute } from '../api/set-project-mute';

/**
 * MUTE NOTIFICATIONS / UNMUTE NOTIFICATIONS for one project, next to FOLLOW: a muted project
 * notifies the member of nothing, whatever their other settings. Presses during a call are
 * ignored (aria-disabled keeps the focus on it); a failure goes to `onError` for the page to say.
 */
export function ProjectMuteButton({
  projectId,
  onError,
}: {
  projectId: number;
  onError: (error: unknown) => void;
}) {
  const state = useProjectMute(projectId);
  const change = useSetProjectMute();
  if (state.isError)
    return (
      <Button
        variant="outlined"
        startIcon={<NotificationsOffOutlined />}
        onClick={() => void state.refetch()}
        loading={state.isFetching}
        loadingPosition="start"
        aria-label="Could not load whether this project is muted. Retry"
      >
        Mute: retry
      </Button>
    );
  const muted = state.data?.muted ?? false;
  return (
    <Button
      variant={muted ? 'contained' : 'outlined'}
      startIcon={muted ? <NotificationsOffOutlined /> : <NotificationsOutlined />}
      loading={state.isPending}
      loadingPosition="start"
      aria-disabled={change.isPending}
      onClick={() => {
        if (state.isSuccess && !change.isPending)
          change.mutate({ projectId, muted: !muted }, { onError });
      }}
    >
      {muted ? 'Unmute notifications' : 'Mute notifications'}
    </Button>
  );
}

/**
 * What following this project means, under its header: FOLLOW notifies of new photos and
 * changes, unless the project is muted.
 */
export function ProjectNotifyHint({
  projectId,
  followed,
}: {
  projectId: number;
  followed: boolean;
}) {
  const state = useProjectMute(projectId);
  const text = state.data?.muted
    ? 'Notifications from this project are muted.'
    : followed
      ? 'You are notified of new photos and changes in this project.'
      : 'Follow to be notified of new photos and changes.';
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: -2, mb: 3 }}>
      {text}
    </Typography>
  );
}
