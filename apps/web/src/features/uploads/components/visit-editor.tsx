import AddAPhotoOutlined from '@mui/icons-material/AddAPhotoOutlined';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { limits } from '@sitelog/shared';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { isOverLimit, LimitedTextField } from '@/components/character-limit';
import { EmptyState } from '@/components/empty-state';
import { paths } from '@/lib/paths';
import { DiscardButton } from '../queue/discard-dialog';
import { photoStatus } from '../queue/photo-status';
import type { QueuedPhoto } from '../queue/queue-db';
import { uploadQueue } from '../queue/runtime';
import { QueuedPhotoThumb } from '../queue/queued-photo-thumb';
import {
  usePhotoProgress,
  useQueueLoaded,
  useQueueOnline,
  useQueuedPhotos,
} from '../queue/use-upload-queue';
import { endVisit, visitIdFor } from '../queue/visit';
import { addTags, pendingTagMessage, TagInput } from './tag-input';

interface Draft {
  name: string;
  description: string;
  tags: string[];
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

/** Text the server would refuse: it is not saved until shortened (the field says so). */
const tooLong = (draft: Partial<Draft>) =>
  isOverLimit(draft.name ?? '', limits.uploadNameMax) ||
  isOverLimit(draft.description ?? '', limits.descriptionMax);

function VisitRow({
  photo,
  index,
  draft,
  onChange,
  onPendingTagChange,
}: {
  photo: QueuedPhoto;
  index: number;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** The text in its tag field that is not a tag (see TagInput). */
  onPendingTagChange: (text: string) => void;
}) {
  const online = useQueueOnline();
  const fraction = usePhotoProgress(photo.clientId);
  const status = photoStatus(photo, { online, fraction });
  const label = `Photo ${index + 1}`;
  return (
    <Paper component="li" variant="outlined" aria-label={label} sx={{ p: 1.5, listStyle: 'none' }}>
      <Stack direction="row" spacing={{ xs: 1.5, sm: 2 }}>
        <Box
          sx={{
            width: { xs: 96, sm: 160 },
            aspectRatio: '4 / 3',
            flexShrink: 0,
            alignSelf: 'flex-start',
            bgcolor: 'action.hover',
            borderRadius: 1,
            overflow: 'hidden',
          }}
        >
          <QueuedPhotoThumb photo={photo} />
        </Box>
        <Stack spacing={1.5} sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography
            variant="caption"
            color={status.tone === 'refused' ? 'error' : 'text.secondary'}
          >
            {label} · {status.label}
            {status.detail ? `: ${status.detail}` : ''}
          </Typography>
          <LimitedTextField
            label={`Name of photo ${index + 1}`}
            size="small"
            value={draft.name}
            max={limits.uploadNameMax}
            limitLabel="Name"
            placeholder={
              photo.status === 'sent' ? undefined : 'Project name and time, if left empty'
            }
            onChange={(event) => onChange({ ...draft, name: event.target.value })}
            fullWidth
          />
          <LimitedTextField
            label={`Description of photo ${index + 1}`}
            size="small"
            value={draft.description}
            max={limits.descriptionMax}
            limitLabel="Description"
            onChange={(event) => onChange({ ...draft, description: event.target.value })}
            multiline
            minRows={1}
            fullWidth
          />
          <TagInput
            label={`Tags of photo ${index + 1}`}
            size="small"
            value={draft.tags}
            onChange={(tags) => onChange({ ...draft, tags })}
            onPendingChange={onPendingTagChange}
          />
          {photo.status === 'waiting' || photo.status === 'refused' ? (
            <Box>
              <DiscardButton photo={photo} label={`Discard photo ${index + 1}`} />
            </Box>
          ) : null}
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * Name and description for every photo at once, and tags added to each photo's own (an
 * `onApply` that answers an error refused it: a photo would pass the tag limit).
 */
function ApplyToAll({
  onApply,
  count,
}: {
  onApply: (draft: Partial<Draft>) => string | null;
  count: number;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [pendingTag, setPendingTag] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="all-heading">
      <Stack spacing={1.5}>
        <Typography id="all-heading" variant="subtitle1" component="h2">
          For all {count} photos
        </Typography>
        <LimitedTextField
          label="Name for all"
          size="small"
          value={name}
          max={limits.uploadNameMax}
          limitLabel="Name"
          onChange={(event) => setName(event.target.value)}
          fullWidth
        />
        <LimitedTextField
          label="Description for all"
          size="small"
          value={description}
          max={limits.descriptionMax}
          limitLabel="Description"
          onChange={(event) => setDescription(event.target.value)}
          multiline
          minRows={2}
          fullWidth
        />
        <TagInput
          label="Tags for all"
          size="small"
          value={tags}
          onChange={(next) => {
            setError(null);
            setTags(next);
          }}
          onPendingChange={(text) => {
            setPendingTag(text);
            if (text === '') setError(null);
          }}
        />
        {error ? (
          <Typography role="alert" variant="body2" color="error">
            {error}
          </Typography>
        ) : null}
        <Box>
          <Button
            variant="outlined"
            disabled={
              (name.trim() === '' && description.trim() === '' && tags.length === 0) ||
              tooLong({ name, description })
            }
            onClick={() =>
              setError(
                // Refused text left in the tag field would be left out without a word.
                pendingTag !== ''
                  ? pendingTagMessage(pendingTag)
                  : onApply({
                      ...(name.trim() ? { name: name.trim() } : {}),
                      ...(description.trim() ? { description: description.trim() } : {}),
                      ...(tags.length > 0 ? { tags } : {}),
                    }),
              )
            }
          >
            Apply to all
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/**
 * The batch editor of an uploader visit: every photo taken since the uploader opened, sent or
 * still on the device, each with its name and description, or one text for all. What is typed is
 * kept on the device and saved with the photo (or to it, once sent) by the queue, so it works
 * without signal. DONE goes to the project, ADD ANOTHER ONE back to the camera.
 */
export function VisitEditor({ projectId }: { projectId: number }) {
  const navigate = useNavigate();
  const all = useQueuedPhotos();
  const loaded = useQueueLoaded();
  const [visitId] = useState(() => visitIdFor(projectId));
  const photos = all.filter((p) => p.visitId === visitId && p.projectId === projectId);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  /** Text in a photo's tag field that is not a tag, by photo: nothing is saved while any is. */
  const [pendingTags, setPendingTags] = useState<Record<string, string>>({});
  const [pendingShown, setPendingShown] = useState(false);
  const [saving, setSaving] = useState(false);

  const draftOf = (photo: QueuedPhoto): Draft =>
    drafts[photo.clientId] ?? {
      name: photo.name,
      description: photo.description,
      tags: photo.tags ?? [],
    };
  const changed = photos.filter((photo) => {
    const draft = drafts[photo.clientId];
    return (
      draft &&
      (draft.name !== photo.name ||
        draft.description !== photo.description ||
        !sameTags(draft.tags, photo.tags ?? []))
    );
  });

  /** The text for all applied to every photo; tags join each photo's own. */
  const applyToAll = (patch: Partial<Draft>): string | null => {
    const next: Record<string, Draft> = {};
    for (const [index, photo] of photos.entries()) {
      const draft = draftOf(photo);
      const tags = patch.tags ? addTags(draft.tags, patch.tags) : null;
      if (tags?.error) return `Photo ${index + 1}: ${tags.error} Remove some of its tags first.`;
      next[photo.clientId] = {
        ...draft,
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(tags ? { tags: tags.tags } : {}),
      };
    }
    setDrafts(next);
    return null;
  };
  const blocked = changed.some((photo) => tooLong(draftOf(photo)));
  const pendingAt = photos.findIndex((photo) => (pendingTags[photo.clientId] ?? '') !== '');
  const pendingTag = pendingAt === -1 ? null : pendingTags[photos[pendingAt]!.clientId]!;

  /** Saves the changed texts; false when nothing may be saved yet. */
  const save = async (): Promise<boolean> => {
    if (blocked) return false;
    if (pendingTag !== null) {
      setPendingShown(true);
      return false;
    }
    setPendingShown(false);
    setSaving(true);
    try {
      for (const photo of changed) {
        const draft = draftOf(photo);
        await uploadQueue.setText(photo.clientId, {
          name: draft.name.trim(),
          description: draft.description.trim(),
          tags: draft.tags,
        });
      }
      setDrafts({});
    } finally {
      setSaving(false);
    }
    return true;
  };

  const done = async () => {
    if (!(await save())) return;
    endVisit(projectId);
    await uploadQueue.closeVisit(visitId);
    void navigate(paths.project(projectId));
  };
  const another = async () => {
    if (!(await save())) return;
    void navigate(paths.uploader(projectId));
  };

  if (loaded && photos.length === 0) {
    return (
      <EmptyState
        icon={<AddAPhotoOutlined />}
        message="No photos in this visit yet"
        description="Take or choose photos first; they show here to be named."
        action={
          <Button component={RouterLink} to={paths.uploader(projectId)} variant="contained">
            Add photos
          </Button>
        }
      />
    );
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      {photos.length > 1 ? <ApplyToAll count={photos.length} onApply={applyToAll} /> : null}
      <Stack component="ol" spacing={1.5} aria-label="Photos of this visit" sx={{ p: 0, m: 0 }}>
        {photos.map((photo, index) => (
          <VisitRow
            key={photo.clientId}
            photo={photo}
            index={index}
            draft={draftOf(photo)}
            onChange={(draft) => setDrafts((all) => ({ ...all, [photo.clientId]: draft }))}
            onPendingTagChange={(text) =>
              setPendingTags((all) => ({ ...all, [photo.clientId]: text }))
            }
          />
        ))}
      </Stack>
      {pendingShown && pendingTag !== null ? (
        <Typography role="alert" variant="body2" color="error">
          {`Photo ${pendingAt + 1}: ${pendingTagMessage(pendingTag)}`}
        </Typography>
      ) : (
        <Typography variant="body2" color={blocked ? 'error' : 'text.secondary'}>
          {blocked
            ? 'A name or description is too long: shorten it to save.'
            : 'Names, descriptions and tags are kept on this device and saved with the photos, also without signal.'}
        </Typography>
      )}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<CheckOutlined />}
          loading={saving}
          disabled={blocked}
          onClick={() => void done()}
        >
          Done
        </Button>
        <Button
          variant="outlined"
          startIcon={<AddAPhotoOutlined />}
          disabled={saving || blocked}
          onClick={() => void another()}
        >
          Add another one
        </Button>
        {changed.length > 0 ? (
          <Button disabled={saving || blocked} onClick={() => void save()}>
            Save
          </Button>
        ) : null}
      </Stack>
    </Stack>
  );
}
