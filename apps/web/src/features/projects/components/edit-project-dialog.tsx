import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { Project } from '@sitelog/shared';
import { useId } from 'react';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useUpdateProject } from '../api/update-project';
import { ProjectForm } from './project-form';

interface EditProjectDialogProps {
  project: Project;
  open: boolean;
  onClose: () => void;
  /** Other views showing the project, refreshed after a save (the page knows which). */
  invalidate?: ExtraInvalidations<Project>;
}

/** EDIT on the project page (creator only): name, location, description, saved with PATCH. */
export function EditProjectDialog({ project, open, onClose, invalidate }: EditProjectDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const update = useUpdateProject(project.id, { invalidate });
  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby={titleId}
    >
      <DialogTitle id={titleId}>Edit project</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        {/* Mounted per opening, so the form starts from the project as it is now. */}
        {open ? (
          <ProjectForm
            label="Edit project"
            initialValues={{
              name: project.name,
              location: project.location,
              latitude: project.latitude,
              longitude: project.longitude,
              description: project.description,
            }}
            submitLabel="Save"
            pending={update.isPending}
            error={update.error}
            onSubmit={(values) =>
              update.mutate(values, {
                onSuccess: () => {
                  update.reset();
                  onClose();
                },
              })
            }
            secondaryActions={
              <Button onClick={close} disabled={update.isPending}>
                Cancel
              </Button>
            }
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
