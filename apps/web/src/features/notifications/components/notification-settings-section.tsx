import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { NotificationSettings, NotificationSettingsPatch } from '@sitelog/shared';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ErrorState } from '@/components/error-state';
import { Section } from '@/components/section';
import { ListSkeleton } from '@/components/skeletons';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { useNotificationSettings } from '../api/get-notification-settings';
import { useSetProjectMute } from '../api/set-project-mute';
import { useUpdateNotificationSettings } from '../api/update-notification-settings';

type Kind = keyof NotificationSettingsPatch;

const kinds: { kind: Kind; label: string; description: string }[] = [
  { kind: 'uploads', label: 'New photos', description: 'In projects you follow or created.' },
  {
    kind: 'comments',
    label: 'Comments on my photos and in projects I follow',
    description: 'Someone comments on a photo you took, or in a project you follow or created.',
  },
  { kind: 'mentions', label: 'Mentions', description: 'Someone mentions you in a comment.' },
  {
    kind: 'projects',
    label: 'Project changes',
    description: 'A project you follow or created is edited, archived or restored.',
  },
  {
    kind: 'reports',
    label: 'Reports',
    description: 'New reports in projects you follow or created.',
  },
];

function KindSwitch({
  kind,
  label,
  description,
  checked,
  onChange,
}: {
  kind: Kind;
  label: string;
  description: string;
  checked: boolean;
  onChange: (kind: Kind, on: boolean) => void;
}) {
  const descriptionId = useId();
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            onChange={(event) => onChange(kind, event.target.checked)}
            slotProps={{ input: { 'aria-describedby': descriptionId } }}
          />
        }
        label={label}
      />
      <Typography
        id={descriptionId}
        variant="body2"
        color="text.secondary"
        sx={{ pl: 6.5, mt: -0.75, mb: 0.5 }}
      >
        {description}
      </Typography>
    </Box>
  );
}

function MutedProjects({ settings }: { settings: NotificationSettings }) {
  const unmute = useSetProjectMute();
  const headingId = useId();
  const [error, setError] = useState<unknown>(null);
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h3" variant="h3" sx={{ mb: 1 }}>
        Muted projects
      </Typography>
      {error ? (
        <Alert severity="error" onClose={() => setError(null)} sx={{ mb: 1 }}>
          {errorMessage(error)}
        </Alert>
      ) : null}
      {settings.mutedProjects.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          None. Mute a project from its page to get nothing from it.
        </Typography>
      ) : (
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {settings.mutedProjects.map((project) => {
            const pending = unmute.isPending && unmute.variables.projectId === project.id;
            return (
              <Stack
                component="li"
                key={project.id}
                direction="row"
                spacing={1}
                sx={{ alignItems: 'center', justifyContent: 'space-between' }}
              >
                <Link
                  component={RouterLink}
                  to={paths.project(project.id)}
                  sx={{ minWidth: 0, overflowWrap: 'anywhere' }}
                >
                  {project.name}
                </Link>
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Unmute ${project.name}`}
                  loading={pending}
                  onClick={() => {
                    setError(null);
                    unmute.mutate({ projectId: project.id, muted: false }, { onError: setError });
                  }}
                  sx={{ flexShrink: 0 }}
                >
                  Unmute
                </Button>
              </Stack>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}

/**
 * The profile page's Notifications section: a switch per kind, saved at once (shown switched
 * before the answer, put back with a message if saving fails), and the muted projects with
 * UNMUTE.
 */
export function NotificationSettingsSection() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const [error, setError] = useState<string | null>(null);
  const change = (kind: Kind, on: boolean) => {
    setError(null);
    update.mutate(
      { [kind]: on },
      {
        onError: (failure) =>
          setError(
            `Your change was not saved, and the switch is back as it was. ${errorMessage(failure)}`,
          ),
      },
    );
  };
  return (
    <Section title="Notifications">
      {settings.isPending ? (
        <ListSkeleton rows={5} label="Loading your notification settings…" />
      ) : settings.isError ? (
        <ErrorState
          error={settings.error}
          title="Could not load your notification settings"
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack spacing={3}>
            <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
              <Typography component="legend" variant="h3" sx={{ mb: 1, p: 0 }}>
                Notify me about
              </Typography>
              {error ? (
                <Alert severity="error" onClose={() => setError(null)} sx={{ mb: 1 }}>
                  {error}
                </Alert>
              ) : null}
              <FormGroup>
                {kinds.map(({ kind, label, description }) => (
                  <KindSwitch
                    key={kind}
                    kind={kind}
                    label={label}
                    description={description}
                    checked={settings.data[kind]}
                    onChange={change}
                  />
                ))}
              </FormGroup>
            </Box>
            <MutedProjects settings={settings.data} />
          </Stack>
        </Paper>
      )}
    </Section>
  );
}
