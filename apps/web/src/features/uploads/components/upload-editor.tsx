import { limits, type Upload } from '@sitelog/shared';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useCharacterLimit } from '@/components/character-limit';
import { errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { useUpdateUpload } from '../api/update-upload';
import { pendingTagMessage, TagInput } from './tag-input';

interface EditorValues {
  name: string;
  description: string;
  tags: string[];
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

export interface UploadEditorControls {
  /** Saves pending changes (nothing to do when there are none); false when saving failed. */
  saveChanges: () => Promise<boolean>;
  busy: boolean;
}

interface UploadEditorProps {
  upload: Upload;
  /** Controls shown after the fields (the batch editor's DONE, ADD ANOTHER ONE, DELETE). */
  renderActions?: (controls: UploadEditorControls) => ReactNode;
  /** What other features show about this upload, refreshed after a save (the page knows). */
  invalidate?: ExtraInvalidations;
}

/**
 * Name, description and tags of an upload. SAVE appears only once something changed (spec §2); a
 * field left as it was is sent with the upload's current value (spec §5), and the tags only when
 * they changed. Render it with `key={upload.id}` so another upload starts from its own values.
 */
export function UploadEditor({ upload, renderActions, invalidate }: UploadEditorProps) {
  const update = useUpdateUpload(upload.id, { invalidate });
  const [saved, setSaved] = useState(false);
  const { register, handleSubmit, getValues, reset, formState, control } = useForm<EditorValues>({
    defaultValues: { name: upload.name, description: upload.description, tags: upload.tags ?? [] },
  });
  const { isDirty, dirtyFields } = formState;
  const nameLimit = useCharacterLimit(
    useWatch({ control, name: 'name' }),
    limits.uploadNameMax,
    'Name',
  );
  const descriptionLimit = useCharacterLimit(
    useWatch({ control, name: 'description' }),
    limits.descriptionMax,
    'Description',
  );
  // Text the server would refuse is not sent; the field says why.
  const tooLong = nameLimit.error || descriptionLimit.error;

  const save = async (values: EditorValues): Promise<boolean> => {
    const tagsChanged = !sameTags(values.tags, upload.tags ?? []);
    const body = {
      upload: {
        name: dirtyFields.name ? values.name : upload.name,
        description: dirtyFields.description ? values.description : upload.description,
        projectId: upload.project.id,
        ...(tagsChanged ? { tags: values.tags } : {}),
      },
    };
    try {
      await update.mutateAsync(body);
    } catch {
      return false; // update.error holds the server's message, shown below.
    }
    // The server stores trimmed text: start again from what it now holds.
    reset({
      name: body.upload.name.trim(),
      description: body.upload.description.trim(),
      tags: values.tags,
    });
    setSaved(true);
    return true;
  };

  /**
   * Text in the tag field that is not a tag (refused: leaving the field adds the rest). Nothing
   * is saved while there is any, and the form says so: saving would drop it silently.
   */
  const [pendingTag, setPendingTag] = useState('');
  const [pendingShown, setPendingShown] = useState(false);
  const tagWaits = () => {
    if (pendingTag === '') return false;
    setPendingShown(true);
    return true;
  };

  const onSubmit = handleSubmit(async (values) => {
    if (tagWaits()) return;
    if (isDirty && !tooLong) await save(values);
  });

  const saveChanges = async () =>
    tooLong || tagWaits() ? false : isDirty ? save(getValues()) : true;

  const { ref: nameRef, ...nameField } = register('name', { onChange: () => setSaved(false) });
  const { ref: descriptionRef, ...descriptionField } = register('description', {
    onChange: () => setSaved(false),
  });

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={(event) => void onSubmit(event)}>
      <TextField
        label="Name"
        {...nameField}
        inputRef={nameRef}
        error={nameLimit.error}
        helperText={nameLimit.helperText}
        fullWidth
      />
      {nameLimit.status}
      <TextField
        label="Description"
        {...descriptionField}
        inputRef={descriptionRef}
        error={descriptionLimit.error}
        helperText={descriptionLimit.helperText}
        multiline
        minRows={3}
        fullWidth
      />
      {descriptionLimit.status}
      <Controller
        control={control}
        name="tags"
        render={({ field }) => (
          <TagInput
            value={field.value}
            onChange={(tags) => {
              setSaved(false);
              field.onChange(tags);
            }}
            onPendingChange={(text) => {
              setPendingTag(text);
              if (text === '') setPendingShown(false);
            }}
          />
        )}
      />
      {pendingShown && pendingTag !== '' ? (
        <Alert severity="error" role="alert">
          {pendingTagMessage(pendingTag)}
        </Alert>
      ) : null}
      {update.isError ? (
        <Alert severity="error" role="alert">
          {errorMessage(update.error)}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {isDirty ? (
          <Button type="submit" variant="contained" loading={update.isPending} disabled={tooLong}>
            Save
          </Button>
        ) : null}
        {saved && !isDirty ? (
          <Typography role="status" variant="body2" color="success.main">
            Saved.
          </Typography>
        ) : null}
        {renderActions?.({ saveChanges, busy: update.isPending })}
      </Stack>
    </Stack>
  );
}
