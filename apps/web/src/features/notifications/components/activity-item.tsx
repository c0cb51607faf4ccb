import Box from '@mui/material/Box';
import ListItemButton from '@mui/material/ListItemButton';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { AppEvent } from '@sitelog/shared';
import { Fragment, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PersonAvatar } from '@/components/person-avatar';
import { visuallyHidden } from '@/components/visually-hidden';
import {
  activityContext,
  activitySentence,
  activityTarget,
  photoDeleted,
  type SentencePart,
} from '../activity-text';
import { formatFullTime, formatTimeAgo } from '../activity-time';

function Sentence({ parts }: { parts: SentencePart[] }) {
  return parts.map((part, index) =>
    part.strong ? (
      <Box key={index} component="strong" sx={{ fontWeight: 700 }}>
        {part.text}
      </Box>
    ) : (
      // A text node, not a span: the spaces at its ends stay part of the row's accessible name.
      <Fragment key={index}>{part.text}</Fragment>
    ),
  );
}

interface ActivityItemProps {
  event: AppEvent;
  /** The signed-in member: their own name reads "you". */
  viewerId: number;
  /** A notification not yet read: marked, and said so to screen readers. */
  unread?: boolean;
  /** Called as the item is opened (before the navigation), e.g. to mark it read. */
  onOpen?: () => void;
}

/**
 * One notification or timeline entry: who (avatar), what (a sentence of plain text, names in
 * bold), when, and the photo's thumbnail when there is one. The whole row is a link to the
 * photo or the project; a photo deleted since is said so, and the row opens the project.
 */
export function ActivityItem({ event, viewerId, unread = false, onOpen }: ActivityItemProps) {
  const preview = event.upload?.id != null ? event.upload.previewLink : null;
  const deleted = photoDeleted(event);
  const context = activityContext(event);
  return (
    <Box component="li" sx={{ listStyle: 'none' }} data-activity-id={event.id}>
      <ListItemButton
        component={RouterLink}
        to={activityTarget(event)}
        onClick={onOpen}
        sx={(theme) => ({
          alignItems: 'flex-start',
          gap: { xs: 1, sm: 1.5 },
          py: 1.25,
          borderRadius: 0,
          bgcolor: unread ? alpha(theme.palette.primary.main, 0.08) : undefined,
        })}
      >
        <Box sx={{ pt: 0.25 }}>
          <PersonAvatar person={event.actor} size={36} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography
            component="span"
            variant="body2"
            sx={{
              display: '-webkit-box',
              WebkitBoxOrient: 'vertical',
              WebkitLineClamp: 4,
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            {unread ? (
              <>
                <Box component="span" sx={visuallyHidden}>
                  Unread:
                </Box>{' '}
              </>
            ) : null}
            <Sentence parts={activitySentence(event, viewerId)} />
          </Typography>
          <Typography
            component="span"
            variant="caption"
            color="text.secondary"
            sx={{ display: 'block', mt: 0.25 }}
          >
            <time dateTime={event.createdAt} title={formatFullTime(event.createdAt)}>
              {formatTimeAgo(event.createdAt)}
            </time>
            {context ? ` · ${context}` : null}
            {deleted ? ' · This photo has been deleted' : null}
          </Typography>
        </Box>
        {preview ? (
          <Box
            component="img"
            src={preview}
            alt=""
            loading="lazy"
            width={56}
            height={56}
            sx={{
              flex: 'none',
              width: { xs: 44, sm: 56 },
              height: { xs: 44, sm: 56 },
              objectFit: 'cover',
              borderRadius: 1,
              bgcolor: 'action.hover',
            }}
          />
        ) : null}
        {unread ? (
          <Box
            aria-hidden
            sx={{
              flex: 'none',
              alignSelf: 'center',
              width: 10,
              height: 10,
              borderRadius: '50%',
              bgcolor: 'primary.main',
            }}
          />
        ) : null}
      </ListItemButton>
    </Box>
  );
}

/** A list of activity rows, divided, on the page's paper. */
export function ActivityList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        m: 0,
        p: 0,
        bgcolor: 'background.paper',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        overflow: 'hidden',
        '& > li + li': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      {children}
    </Box>
  );
}
