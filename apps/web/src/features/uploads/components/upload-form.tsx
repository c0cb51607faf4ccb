import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { limits, type Project } from '@sitelog/shared';
import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Section } from '@/components/section';
import { UnderConstruction } from '@/components/under-construction';
import { visuallyHidden } from '@/components/visually-hidden';
import { ApiError, errorMessage } from '@/lib/api-client';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useCreateUpload } from '../api/create-upload';

/** What the file pickers offer; HEIC/HEIF by extension too, as some browsers give them no type. */
const ACCEPT = 'image/*,.heic,.heif';
const IMAGE_NAME = /\.(jpe?g|jfif|png|webp|gif|tiff?|avif|heic|heif)$/i;

function looksLikeImage(file: File): boolean {
  return file.type.startsWith('image/') || IMAGE_NAME.test(file.name);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; file: File; fraction: number | null }
  | { status: 'failed'; file: File; message: string; canRetry: boolean }
  | { status: 'cancelled'; file: File };

/** A file picker shown as a button: the real input stays focusable (keyboard) but invisible. */
function FilePickerButton({
  label,
  icon,
  capture,
  disabled,
  onFile,
  variant,
}: {
  label: string;
  icon: ReactNode;
  capture?: 'environment';
  disabled: boolean;
  onFile: (file: File) => void;
  variant: 'contained' | 'outlined';
}) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again still counts as a choice.
    event.target.value = '';
    if (file) onFile(file);
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
        disabled={disabled}
        onChange={onChange}
        sx={visuallyHidden}
      />
    </Button>
  );
}

function UploadStatus({
  state,
  onRetry,
  onCancel,
}: {
  state: UploadState;
  onRetry: () => void;
  onCancel: () => void;
}) {
  const labelId = useId();
  if (state.status === 'idle') return null;
  const fileLine = `${state.file.name} (${formatBytes(state.file.size)})`;

  if (state.status === 'uploading') {
    const percent = state.fraction === null ? null : Math.round(state.fraction * 100);
    const sent = percent === 100;
    return (
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={1}>
          <Typography id={labelId} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {sent ? 'Processing' : 'Uploading'} {fileLine}
            {percent !== null && !sent ? ` — ${percent}%` : '…'}
          </Typography>
          <LinearProgress
            aria-labelledby={labelId}
            variant={percent === null ? 'indeterminate' : 'determinate'}
            value={percent ?? undefined}
          />
          <Box>
            <Button size="small" onClick={onCancel} disabled={sent}>
              Cancel
            </Button>
          </Box>
        </Stack>
      </Paper>
    );
  }

  if (state.status === 'cancelled') {
    return (
      <Alert
        severity="info"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            Upload again
          </Button>
        }
      >
        The upload of {fileLine} was cancelled.
      </Alert>
    );
  }

  return (
    <Alert
      severity="error"
      role="alert"
      action={
        state.canRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    >
      <AlertTitle sx={{ overflowWrap: 'anywhere' }}>Could not upload {fileLine}</AlertTitle>
      {state.message}
    </Alert>
  );
}

/**
 * The uploader's form: pick or take a photo and it uploads at once, with progress and cancel;
 * the optional name and description go with it. On success it opens the batch editor.
 */
export function UploadForm({
  project,
  invalidate,
}: {
  project: Project;
  /** What other features show about the project's uploads, refreshed after an upload. */
  invalidate?: ExtraInvalidations;
}) {
  const navigate = useNavigate();
  const createUpload = useCreateUpload({ invalidate });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const uploading = state.status === 'uploading';

  // Leaving the page stops an upload in flight, and the browser asks before closing the tab.
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (!uploading) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [uploading]);

  const start = (file: File) => {
    if (!looksLikeImage(file)) {
      setState({
        status: 'failed',
        file,
        message: 'This is not an image. Choose a photo (JPEG, PNG, HEIC, WebP…).',
        canRetry: false,
      });
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setState({ status: 'uploading', file, fraction: 0 });
    createUpload.mutate(
      {
        file,
        dto: { name, description, projectId: project.id },
        signal: controller.signal,
        onProgress: ({ fraction }) =>
          setState((current) =>
            current.status === 'uploading' && current.file === file
              ? { ...current, fraction }
              : current,
          ),
      },
      {
        onSuccess: (upload) => void navigate(paths.uploadEditBatch(upload.id)),
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'aborted') {
            setState({ status: 'cancelled', file });
            return;
          }
          // A refused file (not an image, too large, undecodable) fails again as it is.
          const refused = error instanceof ApiError && [413, 415, 422].includes(error.status);
          setState({ status: 'failed', file, message: errorMessage(error), canRetry: !refused });
        },
      },
    );
  };

  const retry = () => {
    if (state.status === 'failed' || state.status === 'cancelled') start(state.file);
  };

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <Stack spacing={2}>
        <TextField
          label="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          disabled={uploading}
          helperText="Optional"
          slotProps={{ htmlInput: { maxLength: limits.uploadNameMax } }}
          fullWidth
        />
        <TextField
          label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          disabled={uploading}
          helperText="Optional"
          slotProps={{ htmlInput: { maxLength: limits.descriptionMax } }}
          multiline
          minRows={3}
          fullWidth
        />
      </Stack>

      <Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          The upload starts as soon as you pick a photo.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <FilePickerButton
            label="Take photo"
            icon={<PhotoCameraOutlined />}
            capture="environment"
            variant="contained"
            disabled={uploading}
            onFile={start}
          />
          <FilePickerButton
            label="Choose file"
            icon={<CloudUploadOutlined />}
            variant="outlined"
            disabled={uploading}
            onFile={start}
          />
        </Stack>
      </Box>

      <Box aria-live="polite">
        <UploadStatus state={state} onRetry={retry} onCancel={() => abort.current?.abort()} />
      </Box>

      <Section title="Tags">
        <UnderConstruction whatWillBeHere="Tags will label photos by trade, area and issue." />
      </Section>
    </Stack>
  );
}
