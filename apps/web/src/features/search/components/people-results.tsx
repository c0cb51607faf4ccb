import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { Profile } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PersonAvatar } from '@/components/person-avatar';
import { paths } from '@/lib/paths';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * People found by a search, as cards in a responsive grid: initials, the name (a link to the
 * member's profile that makes the whole card clickable), projects and uploads, "Deactivated"
 * for accounts that are.
 */
export function PeopleResults({
  people,
  renderText,
}: {
  people: readonly Profile[];
  /** Draws the name (marking the words searched for). */
  renderText: (text: string) => ReactNode;
}) {
  return (
    <Box
      component="ul"
      aria-label="People"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 240px), 1fr))',
        gap: 1.5,
      }}
    >
      {people.map((person) => (
        <Box
          component="li"
          key={person.id}
          sx={{
            position: 'relative',
            display: 'flex',
            alignItems: 'center',
            gap: 1.5,
            minWidth: 0,
            px: 1.5,
            py: 1.25,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
            '&:hover': { bgcolor: 'action.hover' },
            '&:has(a:focus-visible)': {
              outline: '2px solid',
              outlineColor: 'primary.main',
              outlineOffset: -2,
            },
          }}
        >
          <PersonAvatar person={person} size={40} />
          <Box sx={{ minWidth: 0 }}>
            <Link
              component={RouterLink}
              to={paths.memberProfile(person.id)}
              underline="hover"
              color="inherit"
              sx={{
                fontWeight: 600,
                overflowWrap: 'anywhere',
                outline: 'none',
                // The whole card opens the profile; the link keeps its own name and focus.
                '&::after': { content: '""', position: 'absolute', inset: 0 },
              }}
            >
              {renderText(`${person.firstname} ${person.lastname}`)}
            </Link>
            <Typography variant="caption" component="p" color="text.secondary">
              {plural(person.projectsCount, 'project')} · {plural(person.uploadsCount, 'upload')}
            </Typography>
            {person.isActive ? null : (
              <Chip label="Deactivated" size="small" variant="outlined" sx={{ mt: 0.5 }} />
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
