import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { Profile } from '@sitelog/shared';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { paths } from '@/lib/paths';

type SortKey = 'firstname' | 'lastname' | 'projectsCount' | 'uploadsCount';
type Direction = 'asc' | 'desc';

const columns: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: 'firstname', label: 'Name', numeric: false },
  { key: 'lastname', label: 'Lastname', numeric: false },
  { key: 'projectsCount', label: 'Projects', numeric: true },
  { key: 'uploadsCount', label: 'Uploads', numeric: true },
];

function compare(a: Profile, b: Profile, key: SortKey): number {
  const x = a[key];
  const y = b[key];
  return typeof x === 'number' && typeof y === 'number'
    ? x - y
    : String(x).localeCompare(String(y), undefined, { sensitivity: 'base' });
}

interface MembersTableProps {
  /** The table's accessible name, e.g. "Members". */
  label: string;
  profiles: Profile[];
  emptyMessage: string;
}

/**
 * Members as a dense, sortable table: #, Name, Lastname, Projects, Uploads (spec §2). Each row
 * opens the member's profile (the name is the link for keyboards and screen readers). On a
 * phone the table scrolls inside its card rather than the page.
 */
export function MembersTable({ label, profiles, emptyMessage }: MembersTableProps) {
  const navigate = useNavigate();
  const [sort, setSort] = useState<{ key: SortKey; direction: Direction } | null>(null);
  const rows = useMemo(() => {
    if (!sort) return profiles;
    const sign = sort.direction === 'asc' ? 1 : -1;
    return [...profiles].sort((a, b) => sign * compare(a, b, sort.key) || a.id - b.id);
  }, [profiles, sort]);

  if (profiles.length === 0) return <EmptyState message={emptyMessage} />;

  const sortBy = (key: SortKey) =>
    setSort((current) =>
      current?.key === key
        ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: columns.find((c) => c.key === key)?.numeric ? 'desc' : 'asc' },
    );

  return (
    <TableContainer component={Paper} variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        aria-label={label}
        sx={{
          minWidth: 300,
          '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } },
          // On a phone the hidden icons of unsorted columns would push the table past the screen.
          '& .MuiTableSortLabel-root:not(.Mui-active) .MuiTableSortLabel-icon': {
            display: { xs: 'none', sm: 'inline-block' },
          },
        }}
      >
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: '3rem' }}>#</TableCell>
            {columns.map((column) => (
              <TableCell
                key={column.key}
                align={column.numeric ? 'right' : 'left'}
                sortDirection={sort?.key === column.key ? sort.direction : false}
              >
                <TableSortLabel
                  active={sort?.key === column.key}
                  direction={sort?.key === column.key ? sort.direction : 'asc'}
                  onClick={() => sortBy(column.key)}
                >
                  {column.label}
                </TableSortLabel>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((profile, index) => (
            <TableRow
              key={profile.id}
              hover
              onClick={() => void navigate(paths.memberProfile(profile.id))}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell>{index + 1}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <Link
                  component={RouterLink}
                  to={paths.memberProfile(profile.id)}
                  onClick={(event) => event.stopPropagation()}
                  aria-label={`${profile.firstname} ${profile.lastname}`}
                >
                  {profile.firstname}
                </Link>
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{profile.lastname}</TableCell>
              <TableCell align="right">{profile.projectsCount}</TableCell>
              <TableCell align="right">{profile.uploadsCount}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
