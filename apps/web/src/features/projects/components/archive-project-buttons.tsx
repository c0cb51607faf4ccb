import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { Project } from '@sitelog/shared';
import { useId, useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useArchiveProject } from '../api/archive-project';
import { useRestoreProject } from '../api/restore-project';

type ProjectMutation = ReturnType<typeof useArchiveProject>;

interface ConfirmButtonProps {
  project: Pick<Project, 'id' | 'name'>;
  /** Other features' views of the project and its photos, refreshed after the change. */
  invalidate?: ExtraInvalidations<Project, void>;
  /** Called once the server has answered; the button itself may be gone by then. */
  onDone?: (project: Project) => void;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}

/**
 * A button that asks first: the dialog says what will happen, CONFIRM sends the call, and a
 * refusal is shown in the dialog. The caller's `onDone` runs through the mutation's promise, so
 * it still runs when the answer re-renders the page without this button.
 */
function ConfirmedAction({
  mutation,
  buttonLabel,
  buttonAriaLabel,
  icon,
  title,
  confirmLabel,
  children,
  onDone,
  variant = 'outlined',
  size,
}: {
  mutation: ProjectMutation;
  buttonLabel: string;
  buttonAriaLabel?: string;
  icon: ReactNode;
  title: string;
  confirmLabel: string;
  children: ReactNode;
  onDone?: (project: Project) => void;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const textId = useId();
  const close = () => {
    if (mutation.isPending) return;
    setOpen(false);
    mutation.reset();
  };
  const confirm = () => {
    if (mutation.isPending) return;
    mutation
      .mutateAsync()
      .then((project) => {
        setOpen(false);
        onDone?.(project);
      })
      // The refusal is on screen through mutation.error.
      .catch(() => undefined);
  };
  return (
    <>
      <Button
        variant={variant}
        size={size}
        startIcon={icon}
        onClick={() => setOpen(true)}
        aria-label={buttonAriaLabel}
      >
        {buttonLabel}
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} aria-describedby={textId}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Box id={textId} sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
            {children}
          </Box>
          {mutation.isError ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {errorMessage(mutation.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={confirm} loading={mutation.isPending}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * ARCHIVE PROJECT with a confirmation that says what archiving does. Render it for the creator
 * or an admin (canArchiveProject), on a project that is not archived.
 */
export function ArchiveProjectButton({
  project,
  invalidate,
  onDone,
  variant,
  size,
}: ConfirmButtonProps) {
  const archive = useArchiveProject(project.id, { invalidate });
  return (
    <ConfirmedAction
      mutation={archive}
      buttonLabel="Archive project"
      icon={<ArchiveOutlined />}
      title="Archive this project?"
      confirmLabel="Archive project"
      onDone={onDone}
      variant={variant}
      size={size}
    >
      <Typography>“{project.name}” will be archived:</Typography>
      <Box component="ul" sx={{ pl: 2.5, my: 1, '& li': { mb: 0.5 } }}>
        <li>
          It is hidden from My projects, All projects, bookmarks, follows and the uploader’s project
          list.
        </li>
        <li>
          It becomes read-only: no new photos, no edits to it or its photos, no bookmarks or
          follows.
        </li>
        <li>Its page and photos stay viewable by link, marked Archived.</li>
      </Box>
      <Typography>
        Its creator or an admin can restore it at any time from Archived projects.
      </Typography>
    </ConfirmedAction>
  );
}

/** RESTORE with a confirmation. Render it for the creator or an admin, on an archived project. */
export function RestoreProjectButton({
  project,
  invalidate,
  onDone,
  variant,
  size,
  withName = false,
}: ConfirmButtonProps & {
  /** Names the project in the button's accessible name (for a list of them). */
  withName?: boolean;
}) {
  const restore = useRestoreProject(project.id, { invalidate });
  return (
    <ConfirmedAction
      mutation={restore}
      buttonLabel="Restore"
      buttonAriaLabel={withName ? `Restore ${project.name}` : undefined}
      icon={<UnarchiveOutlined />}
      title="Restore this project?"
      confirmLabel="Restore"
      onDone={onDone}
      variant={variant}
      size={size}
    >
      <Typography>
        “{project.name}” will be back in the project lists, and photos can be added to it and edited
        again.
      </Typography>
    </ConfirmedAction>
  );
}
