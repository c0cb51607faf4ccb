import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { alpha } from '@mui/material/styles';
import type { CommentPerson } from '@sitelog/shared';
import { Fragment, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import { paths } from '@/lib/paths';
import { commentParts } from '../comment-parts';

/**
 * A comment's text as React nodes, never HTML: text nodes with its line breaks kept, http(s)
 * addresses as links opening in a new tab (`noopener noreferrer`, the host they open in their
 * title), and the members it names
 * highlighted, linking to their profiles.
 */
export function CommentBody({
  body,
  mentions,
}: {
  body: string;
  mentions: readonly CommentPerson[];
}) {
  const parts = useMemo(() => commentParts(body, mentions), [body, mentions]);
  return (
    <Box
      data-comment-body
      sx={{
        typography: 'body2',
        whiteSpace: 'pre-wrap',
        // A long address or word wraps instead of widening the page at 375 px.
        overflowWrap: 'anywhere',
      }}
    >
      {parts.map((part, i) => {
        if (part.kind === 'text') return <Fragment key={i}>{part.text}</Fragment>;
        if (part.kind === 'link')
          return (
            <Link
              key={i}
              href={part.href}
              target="_blank"
              rel="noopener noreferrer"
              // Where it really goes, whatever the text looks like.
              title={`Opens ${part.host}`}
            >
              {part.text}
              <Box component="span" sx={visuallyHidden}>
                {' '}
                (opens in a new tab)
              </Box>
            </Link>
          );
        return (
          <Link
            key={i}
            component={RouterLink}
            to={paths.memberProfile(part.person.id)}
            data-mention={part.person.id}
            title={part.person.active ? undefined : 'Deactivated member'}
            underline="hover"
            sx={(theme) => ({
              fontWeight: 600,
              borderRadius: 0.5,
              px: 0.25,
              // The deeper orange on its tint in light mode, the lighter one in dark: both AA.
              color: theme.palette.mode === 'dark' ? 'primary.light' : 'primary.dark',
              bgcolor: alpha(theme.palette.primary.main, 0.12),
            })}
          >
            {part.text}
          </Link>
        );
      })}
    </Box>
  );
}
