import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { reportLimits } from '@sitelog/shared';
import { useState, type FormEvent } from 'react';
import { ErrorState } from '@/components/error-state';
import { OfflineFallback } from '@/components/offline-state';
import { errorMessage } from '@/lib/api-client';
import { useWorkspace } from '../api/get-workspace';
import { useUpdateWorkspace } from '../api/update-workspace';

/**
 * The admin's setting for reports: the company or team name printed on every new report's cover
 * (a report keeps the name it was made with). SAVE stores it; the field starts from the name
 * stored, and an edit not yet saved stays as typed.
 */
export function WorkspaceNameForm() {
  const workspace = useWorkspace();
  const update = useUpdateWorkspace();
  // What the admin typed, or null while the field shows the stored name.
  const [draft, setDraft] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  if (workspace.isPending)
    return (
      <OfflineFallback>
        <Box role="status" aria-label="Loading the team name…">
          <Skeleton variant="rounded" height={40} sx={{ maxWidth: 480 }} />
        </Box>
      </OfflineFallback>
    );
  if (workspace.isError)
    return (
      <ErrorState
        error={workspace.error}
        title="Could not load the team name"
        onRetry={() => void workspace.refetch()}
        retrying={workspace.isFetching}
      />
    );

  const value = draft ?? workspace.data.teamName;
  const tooLong = value.trim().length > reportLimits.teamNameMax;
  const unchanged = value.trim() === workspace.data.teamName.trim();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (tooLong || unchanged || update.isPending) return;
    update.mutate(
      { teamName: value.trim() },
      {
        onSuccess: () => {
          setDraft(null);
          setSaved(true);
        },
      },
    );
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Team name on reports">
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: '75ch' }}>
        Printed on the cover of every new report. Reports made before keep the name they were made
        with.
      </Typography>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' }, maxWidth: 640 }}
      >
        <TextField
          label="Company or team name (on report covers)"
          name="teamName"
          value={value}
          onChange={(event) => {
            setDraft(event.target.value);
            setSaved(false);
            if (update.isError) update.reset();
          }}
          disabled={update.isPending}
          error={tooLong}
          helperText={
            tooLong
              ? `The company or team name must be at most ${reportLimits.teamNameMax} characters.`
              : 'Leave empty to print no name.'
          }
          autoComplete="organization"
          fullWidth
          size="small"
        />
        <Button
          type="submit"
          variant="contained"
          disabled={tooLong || unchanged}
          loading={update.isPending}
          sx={{ flexShrink: 0 }}
        >
          Save
        </Button>
      </Stack>
      {update.isError ? (
        <Alert severity="error" role="alert" sx={{ mt: 2, maxWidth: 640 }}>
          {`Could not save the name. ${errorMessage(update.error)}`}
        </Alert>
      ) : null}
      {saved ? (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Saved. New reports carry this name.
        </Typography>
      ) : null}
    </Box>
  );
}
