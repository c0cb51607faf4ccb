import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Upload } from '@sitelog/shared';
import { useCallback, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useCurrentUser } from '@/lib/session';
import { useUpdateUpload } from '../api/update-upload';
import { canEditUpload } from '../can-edit-upload';
import { projectTagPath } from '../tag-paths';
import { pendingTagMessage, TagInput } from './tag-input';

/** Tags as chips, each opening the project's photos with that tag. */
export function TagChips({
  projectId,
  tags,
  size = 'medium',
}: {
  projectId: number;
  tags: readonly string[];
  size?: 'small' | 'medium';
}) {
  return (
    <Stack
      component="ul"
      direction="row"
      aria-label="Tags"
      useFlexGap
      sx={{ flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}
    >
      {tags.map((tag) => (
        <li key={tag}>
          <Chip
            component={RouterLink}
            to={projectTagPath(projectId, tag)}
            clickable
            size={size}
            variant="outlined"
            icon={<LocalOfferOutlined />}
            label={tag}
            title={`Photos of this project tagged “${tag}”`}
            sx={{ maxWidth: '100%' }}
          />
        </li>
      ))}
    </Stack>
  );
}

/**
 * An upload's tags for everyone, as chips; its creator (while the project is open) gets EDIT TAGS,
 * which turns them into the tag field with SAVE TAGS and CANCEL. Only the tags are sent.
 */
export function UploadTags({
  upload,
  invalidate,
  size = 'medium',
  disablePortal = false,
}: {
  upload: Upload;
  /** What other features show about the upload, refreshed after a save (the page knows). */
  invalidate?: ExtraInvalidations;
  size?: 'small' | 'medium';
  /** The tag field's suggestions drawn in place (see TagInput). */
  disablePortal?: boolean;
}) {
  const user = useCurrentUser();
  const tags = upload.tags ?? [];
  const canEdit = canEditUpload(user, upload);
  const [draft, setDraft] = useState<string[] | null>(null);
  /** Text in the field that is not a tag; SAVE TAGS waits, saying so, while there is any. */
  const [pending, setPending] = useState('');
  const [pendingShown, setPendingShown] = useState(false);
  const update = useUpdateUpload(upload.id, { invalidate });
  /** Set when the field closes: focus goes back to EDIT TAGS once it is drawn again. */
  const refocus = useRef(false);
  // A callback ref runs in the commit that mounts the button (a frame callback could run before
  // React draws it under load, and find no button).
  const editButton = useCallback((node: HTMLButtonElement | null) => {
    if (node && refocus.current) {
      refocus.current = false;
      node.focus();
    }
  }, []);

  const close = () => {
    setDraft(null);
    setPending('');
    setPendingShown(false);
    update.reset();
    refocus.current = true;
  };
  const save = async (next: string[]) => {
    // Leaving the field added what could be a tag; what is left was refused, and saving
    // without it would drop it silently.
    if (pending !== '') {
      setPendingShown(true);
      return;
    }
    try {
      await update.mutateAsync({ upload: { tags: next } });
    } catch {
      return; // update.error holds the server's message, shown below.
    }
    close();
  };

  if (draft !== null) {
    return (
      <Stack spacing={1.5}>
        <TagInput
          value={draft}
          onChange={setDraft}
          size={size}
          disablePortal={disablePortal}
          autoFocus
          onPendingChange={(text) => {
            setPending(text);
            if (text === '') setPendingShown(false);
          }}
        />
        {pendingShown && pending !== '' ? (
          <Alert severity="error" role="alert">
            {pendingTagMessage(pending)}
          </Alert>
        ) : null}
        {update.isError ? (
          <Alert severity="error" role="alert">
            {errorMessage(update.error)}
          </Alert>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            size="small"
            loading={update.isPending}
            onClick={() => void save(draft)}
          >
            Save tags
          </Button>
          <Button size="small" disabled={update.isPending} onClick={close}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    );
  }
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      {tags.length > 0 ? (
        <TagChips projectId={upload.project.id} tags={tags} size={size} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          No tags yet.
        </Typography>
      )}
      {canEdit ? (
        <Box>
          <Button
            ref={editButton}
            size="small"
            startIcon={<LocalOfferOutlined />}
            onClick={() => setDraft([...tags])}
          >
            {tags.length > 0 ? 'Edit tags' : 'Add tags'}
          </Button>
        </Box>
      ) : null}
    </Stack>
  );
}
