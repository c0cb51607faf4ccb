import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { Upload } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/lib/paths';

/** What a member sees on another member's editor: why there is no form, and the way back. */
export function OnlyCreatorCanEdit({ upload }: { upload: Pick<Upload, 'id' | 'creator'> }) {
  return (
    <Alert
      severity="info"
      variant="outlined"
      sx={{ bgcolor: 'background.paper', alignItems: 'center' }}
      action={
        <Button component={RouterLink} to={paths.upload(upload.id)} color="inherit" size="small">
          View photo
        </Button>
      }
    >
      Only the creator of this photo ({upload.creator.firstname} {upload.creator.lastname}) can edit
      it.
    </Alert>
  );
}

/** What the creator sees on the editor of a photo whose project is archived: it is read-only. */
export function ArchivedReadOnly({ upload }: { upload: Pick<Upload, 'id' | 'project'> }) {
  return (
    <Alert
      severity="info"
      variant="outlined"
      sx={{ bgcolor: 'background.paper', alignItems: 'center', overflowWrap: 'anywhere' }}
      action={
        <Button component={RouterLink} to={paths.upload(upload.id)} color="inherit" size="small">
          View photo
        </Button>
      }
    >
      {upload.project.name} is archived, so its photos are read-only: this photo cannot be edited or
      deleted until the project is restored.
    </Alert>
  );
}
