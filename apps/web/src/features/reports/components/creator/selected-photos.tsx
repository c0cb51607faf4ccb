import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import DragIndicator from '@mui/icons-material/DragIndicator';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { reportLimits, type Upload } from '@sitelog/shared';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { LimitedTextField } from '@/components/character-limit';
import { visuallyHidden } from '@/components/visually-hidden';
import { authorName, photoName, photoTime } from './photo-names';
import { useStableCallback } from './use-stable-callback';

type FocusTarget = { id: number; control: 'up' | 'down' | 'remove' };

interface RowProps {
  photo: Upload;
  index: number;
  count: number;
  caption: string;
  onCaptionChange: (id: number, caption: string) => void;
  onMove: (id: number, to: number, control: 'up' | 'down') => void;
  onRemove: (id: number) => void;
}

/**
 * One photo of the report: a handle to drag it (or to move it with the keyboard: Space, arrows,
 * Space), Move up / Move down / Remove buttons, and its caption.
 */
const SortablePhoto = memo(function SortablePhoto({
  photo,
  index,
  count,
  caption,
  onCaptionChange,
  onMove,
  onRemove,
}: RowProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: photo.id });
  const name = photoName(photo);
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      variant="outlined"
      data-report-photo={photo.id}
      aria-label={`${index + 1}. ${name}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      sx={{
        p: 1,
        listStyle: 'none',
        position: 'relative',
        zIndex: isDragging ? 2 : 'auto',
        boxShadow: isDragging ? 6 : 'none',
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <IconButton
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Reorder ${name}`}
          title="Drag to move, or press Space and use the arrow keys"
          size="small"
          sx={{ touchAction: 'none', cursor: isDragging ? 'grabbing' : 'grab', mt: 0.5 }}
        >
          <DragIndicator />
        </IconButton>
        <Box
          component="img"
          src={photo.previewLink}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{
            width: { xs: 56, sm: 88 },
            aspectRatio: '4 / 3',
            objectFit: 'cover',
            borderRadius: 0.5,
            bgcolor: 'action.hover',
            flex: 'none',
          }}
        />
        <Box
          sx={{
            flex: 1,
            minWidth: 0,
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'flex-start',
            columnGap: 1,
          }}
        >
          <Box sx={{ flex: '1 1 140px', minWidth: 0 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
              <Box component="span" sx={{ color: 'text.secondary', mr: 0.5 }}>
                {index + 1}.
              </Box>
              {name}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="p" noWrap>
              {authorName(photo)} · {photoTime(photo)}
            </Typography>
          </Box>
          <Stack direction="row" sx={{ flex: 'none' }}>
            <IconButton
              size="small"
              data-move="up"
              aria-label={`Move ${name} up`}
              title="Move up"
              disabled={index === 0}
              onClick={() => onMove(photo.id, index - 1, 'up')}
            >
              <ArrowUpward fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              data-move="down"
              aria-label={`Move ${name} down`}
              title="Move down"
              disabled={index === count - 1}
              onClick={() => onMove(photo.id, index + 1, 'down')}
            >
              <ArrowDownward fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              data-move="remove"
              aria-label={`Remove ${name}`}
              title="Remove from the report"
              onClick={() => onRemove(photo.id)}
            >
              <CloseOutlined fontSize="small" />
            </IconButton>
          </Stack>
        </Box>
      </Stack>
      <Box sx={{ mt: 1 }}>
        <LimitedTextField
          label={`Caption for ${name}`}
          size="small"
          value={caption}
          max={reportLimits.captionMax}
          limitLabel="A caption"
          onChange={(event) => onCaptionChange(photo.id, event.target.value)}
          multiline
          minRows={1}
          fullWidth
        />
      </Box>
    </Paper>
  );
});

export interface SelectedPhotosProps {
  /** The report's photos, in order. */
  photos: readonly Upload[];
  captionOf: (photo: Upload) => string;
  onCaptionChange: (id: number, caption: string) => void;
  /** Puts photo `id` at index `to`. */
  onMove: (id: number, to: number) => void;
  onRemove: (id: number) => void;
}

/**
 * The report's photos in their order, each with its caption. Reordered by dragging the handle
 * (mouse or touch), by the keyboard on the handle (dnd-kit's sortable: Space, arrows, Space;
 * Escape cancels; every step is announced), or by the Move up / Move down buttons, which keep
 * the focus on the moved photo's button and say where it went.
 */
export function SelectedPhotos({
  photos,
  captionOf,
  onCaptionChange,
  onMove,
  onRemove,
}: SelectedPhotosProps) {
  const listRef = useRef<HTMLOListElement>(null);
  const focusAfter = useRef<FocusTarget | null>(null);
  const [said, setSaid] = useState('');
  /** Where the photo being dragged was last said to be. */
  const lastOver = useRef<UniqueIdentifier | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = photos.map((photo) => photo.id);
  const count = photos.length;

  // The focus stays on the photo just moved (or goes to the next one after a remove), once the
  // list is drawn in its new order.
  useLayoutEffect(() => {
    const target = focusAfter.current;
    if (!target) return;
    focusAfter.current = null;
    const row = listRef.current?.querySelector(`[data-report-photo="${target.id}"]`);
    const buttons = ['up', 'down', 'remove'].map((control) =>
      row?.querySelector<HTMLButtonElement>(`[data-move="${control}"]`),
    );
    const wanted = { up: 0, down: 1, remove: 2 }[target.control];
    // A photo moved to the top has no Move up: its Move down takes the focus, and so on.
    const order = [wanted, wanted === 0 ? 1 : 0, 2];
    order
      .map((i) => buttons[i])
      .find((button) => button && !button.disabled)
      ?.focus();
  });

  const nameOf = (id: UniqueIdentifier) => {
    const photo = photos.find((p) => p.id === id);
    return photo ? photoName(photo) : 'The photo';
  };
  const positionOf = (id: UniqueIdentifier) => ids.indexOf(Number(id)) + 1;

  const move = useStableCallback((id: number, to: number, control: 'up' | 'down') => {
    if (to < 0 || to >= count) return;
    focusAfter.current = { id, control };
    onMove(id, to);
    setSaid(`${nameOf(id)} moved to position ${to + 1} of ${count}.`);
  });
  const remove = useStableCallback((id: number) => {
    const index = ids.indexOf(id);
    const next = ids[index + 1] ?? ids[index - 1];
    if (next !== undefined) focusAfter.current = { id: next, control: 'remove' };
    onRemove(id);
    setSaid(`${nameOf(id)} removed from the report.`);
  });
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(Number(active.id), ids.indexOf(Number(over.id)));
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      lastOver.current = active.id;
      return `Picked up ${nameOf(active.id)}, position ${positionOf(active.id)} of ${count}.`;
    },
    // Said when the place changes: not at the start, where the photo is over its own place (that
    // would cut "Picked up…" short).
    onDragOver: ({ active, over }) => {
      const id = over?.id ?? null;
      if (id === lastOver.current) return undefined;
      lastOver.current = id;
      return over
        ? `${nameOf(active.id)} is over position ${positionOf(over.id)} of ${count}.`
        : `${nameOf(active.id)} is no longer over the list.`;
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `${nameOf(active.id)} dropped at position ${positionOf(over.id)} of ${count}.`
        : `${nameOf(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) =>
      `Moving ${nameOf(active.id)} was cancelled: it stays at position ${positionOf(active.id)} of ${count}.`,
  };

  return (
    <>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move this photo, press Space or Enter, then the up and down arrow keys, and Space or Enter again to drop it. Escape cancels. The Move up and Move down buttons do the same.',
          },
        }}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <Stack
            component="ol"
            ref={listRef}
            spacing={1}
            aria-label="Photos in the report, in order"
            sx={{ p: 0, m: 0 }}
          >
            {photos.map((photo, index) => (
              <SortablePhoto
                key={photo.id}
                photo={photo}
                index={index}
                count={count}
                caption={captionOf(photo)}
                onCaptionChange={onCaptionChange}
                onMove={move}
                onRemove={remove}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Box aria-live="polite" aria-atomic="true" sx={visuallyHidden}>
        {said}
      </Box>
    </>
  );
}
