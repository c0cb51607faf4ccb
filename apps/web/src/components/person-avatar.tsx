import Box from '@mui/material/Box';

/** Who: anyone the API names (an upload's creator, a member's profile). */
interface Person {
  id: number;
  firstname: string;
  lastname: string;
}

/** "AS" for Aisha Sharma; the first letter of whichever name is there. */
export function initialsOf(person: Pick<Person, 'firstname' | 'lastname'>): string {
  const first = [...person.firstname.trim()][0] ?? '';
  const last = [...person.lastname.trim()][0] ?? '';
  return (first + last).toUpperCase() || '?';
}

/** A few fixed hues (white text passes AA on each), picked by the person's id. */
const AVATAR_COLORS = ['#9A3412', '#1D4ED8', '#047857', '#7E22CE', '#B91C1C', '#0F766E', '#A16207'];

/**
 * A person's initials in a coloured circle (the app stores no profile pictures). A plain box, not
 * MUI's Avatar: it is on every tile of Home, in the first download.
 */
export function PersonAvatar({ person, size = 32 }: { person: Person; size?: number }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        flex: 'none',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        borderRadius: '50%',
        width: size,
        height: size,
        fontSize: size * 0.42,
        fontWeight: 600,
        lineHeight: 1,
        color: '#fff',
        bgcolor: AVATAR_COLORS[person.id % AVATAR_COLORS.length],
        userSelect: 'none',
      }}
    >
      {initialsOf(person)}
    </Box>
  );
}
