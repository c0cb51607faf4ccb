import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import EditNoteOutlined from '@mui/icons-material/EditNoteOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { limits } from '@sitelog/shared';
import { useMemo, useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { isOverLimit, LimitedTextField } from '@/components/character-limit';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';
import { QueuedPhotoCard } from '../queue/queued-photo-card';
import { uploadQueue } from '../queue/runtime';
import { useQueuedPhotos } from '../queue/use-upload-queue';
import { TagInput } from './tag-input';
import { uploadGridColumns } from './upload-tiles';
import { visitIdFor } from '../queue/visit';

/** What the file pickers offer; HEIC/HEIF by extension too, as some browsers give them no type. */
const ACCEPT = 'image/*,.heic,.heif';
const IMAGE_NAME = /\.(jpe?g|jfif|png|webp|gif|tiff?|avif|heic|heif)$/i;

export function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/') || IMAGE_NAME.test(file.name);
}

/** A file picker shown as a button: the real input stays focusable (keyboard) but invisible. */
function FilePickerButton({
  label,
  icon,
  capture,
  multiple,
  onFiles,
  variant,
  disabled = false,
}: {
  label: string;
  icon: ReactNode;
  capture?: 'environment';
  multiple?: boolean;
  onFiles: (files: File[]) => void;
  variant: 'contained' | 'outlined';
  disabled?: boolean;
}) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    // Cleared at once, so the camera is ready for the next shot and the same file counts again.
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <Button
      component="label"
      role={undefined}
      tabIndex={-1}
      variant={variant}
      size="large"
      startIcon={icon}
      disabled={disabled}
      sx={{
        '&:has(input:focus-visible)': {
          outline: '3px solid',
          outlineColor: 'primary.main',
          outlineOffset: 2,
        },
      }}
    >
      {label}
      <Box
        component="input"
        type="file"
        accept={ACCEPT}
        capture={capture}
        multiple={multiple}
        onChange={onChange}
        disabled={disabled}
        sx={visuallyHidden}
      />
    </Button>
  );
}

/** Desktop: photos dragged from the file manager onto the page. */
function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const [over, setOver] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (![...event.dataTransfer.types].includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };
  return (
    <Box
      data-testid="drop-zone"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      sx={{
        display: { xs: 'none', md: 'flex' },
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: 96,
        border: '2px dashed',
        borderColor: over ? 'primary.main' : 'divider',
        borderRadius: 1,
        bgcolor: over ? 'action.hover' : 'transparent',
        color: 'text.secondary',
        px: 2,
      }}
    >
      <Typography variant="body2">…or drop photos here</Typography>
    </Box>
  );
}

export interface UploadTarget {
  id: number;
  /** Null while offline and the project was never loaded here: it is named when sent. */
  name: string | null;
  location?: string;
}

/**
 * The field uploader: take photo after photo (the camera is ready again after each shot), or
 * choose or drop several at once. Each is written to the device first, shows at once as a tile
 * with its own state, and is sent in the background, two at a time, whether or not there is
 * signal now. The name, description and tags typed here go with every photo added next.
 */
export function UploadForm({ project }: { project: UploadTarget }) {
  const photos = useQueuedPhotos();
  const visitId = useMemo(() => visitIdFor(project.id), [project.id]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [notice, setNotice] = useState<{ severity: 'error' | 'warning'; text: string } | null>(
    null,
  );

  // Text past its limit would have every photo refused by the server: no photo is taken or
  // added until it is shortened (the field says so).
  const textTooLong =
    isOverLimit(name, limits.uploadNameMax) || isOverLimit(description, limits.descriptionMax);

  const visit = photos
    .filter((photo) => photo.visitId === visitId && photo.projectId === project.id)
    .reverse();

  const add = async (files: File[]) => {
    if (textTooLong) {
      setNotice({
        severity: 'error',
        text: 'Shorten the name or description below first: photos are not added while they are too long.',
      });
      return;
    }
    const images = files.filter(looksLikeImage);
    const others = files.filter((file) => !looksLikeImage(file));
    setNotice(
      others.length > 0
        ? {
            severity: 'warning',
            text: `${others.map((f) => f.name).join(', ')}: not ${others.length > 1 ? 'images' : 'an image'}. Choose photos (JPEG, PNG, HEIC, WebP…).`,
          }
        : null,
    );
    if (images.length === 0) return;
    let failed: { file: File; error: unknown }[];
    try {
      ({ failed } = await uploadQueue.add(
        images,
        {
          projectId: project.id,
          projectName: project.name ?? `Project ${project.id}`,
          projectLocation: project.location,
          visitId,
        },
        { name: name.trim(), description: description.trim(), tags },
      ));
    } catch (error) {
      failed = images.map((file) => ({ file, error }));
    }
    if (failed.length > 0) {
      const full = failed.some(
        ({ error }) => error instanceof DOMException && error.name === 'QuotaExceededError',
      );
      const names = failed.map(({ file }) => file.name).join(', ');
      setNotice({
        severity: 'error',
        text: full
          ? `${names}: this device has no room left to keep ${failed.length > 1 ? 'them' : 'it'} until sent. Send or discard waiting photos, or free some space, then add ${failed.length > 1 ? 'them' : 'it'} again.`
          : `${names}: could not be saved on this device (${String((failed[0]?.error as Error | undefined)?.message ?? failed[0]?.error)}). Add ${failed.length > 1 ? 'them' : 'it'} again; the others are queued.`,
      });
    }
  };

  const onFiles = (files: File[]) => void add(files);
  const sent = visit.filter((photo) => photo.status === 'sent').length;

  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Stack spacing={1.5}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <FilePickerButton
            label="Take photo"
            icon={<PhotoCameraOutlined />}
            capture="environment"
            variant="contained"
            onFiles={onFiles}
            disabled={textTooLong}
          />
          <FilePickerButton
            label="Choose photos"
            icon={<CloudUploadOutlined />}
            variant="outlined"
            multiple
            onFiles={onFiles}
            disabled={textTooLong}
          />
        </Stack>
        <DropZone onFiles={onFiles} />
        <Typography variant="body2" color="text.secondary">
          Each photo is kept on this device until the server has it, and is sent as soon as there is
          signal. Keep shooting.
        </Typography>
      </Stack>

      {notice ? (
        <Alert severity={notice.severity} role="alert" onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}

      {visit.length > 0 ? (
        <Stack spacing={1.5} component="section" aria-labelledby="visit-heading">
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
          >
            {/* Polite: it changes when a photo is added or sent, not with every percent. */}
            <Typography id="visit-heading" variant="h6" component="h2" aria-live="polite">
              This visit: {visit.length} {visit.length === 1 ? 'photo' : 'photos'}
              {sent > 0 ? `, ${sent} sent` : ''}
            </Typography>
            <Button
              component={RouterLink}
              to={paths.uploaderBatch(project.id)}
              variant="contained"
              color="secondary"
              startIcon={<EditNoteOutlined />}
            >
              Name and describe
            </Button>
          </Stack>
          <Box
            component="ul"
            aria-label="Photos of this visit"
            sx={{
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: uploadGridColumns,
              p: 0,
              m: 0,
            }}
          >
            {visit.map((photo) => (
              <QueuedPhotoCard key={photo.clientId} photo={photo} />
            ))}
          </Box>
        </Stack>
      ) : null}

      <Stack spacing={2} component="section" aria-labelledby="next-text-heading">
        <Typography id="next-text-heading" variant="subtitle1" component="h2">
          For the next photos
        </Typography>
        <LimitedTextField
          label="Name"
          value={name}
          max={limits.uploadNameMax}
          limitLabel="Name"
          onChange={(event) => setName(event.target.value)}
          helperText="Optional. Left empty, a photo is named after the project and the time it was taken."
          fullWidth
        />
        <LimitedTextField
          label="Description"
          value={description}
          max={limits.descriptionMax}
          limitLabel="Description"
          onChange={(event) => setDescription(event.target.value)}
          helperText="Optional."
          multiline
          minRows={2}
          fullWidth
        />
        <TagInput value={tags} onChange={setTags} />
      </Stack>
    </Stack>
  );
}
