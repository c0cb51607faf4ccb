import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Project } from '@sitelog/shared';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '@/components/visually-hidden';
import type { ExtraInvalidations } from '@/lib/invalidate';
import { paths } from '@/lib/paths';
import { useCurrentUser } from '@/lib/session';
import { canArchiveProject } from '../can-archive-project';
import { RestoreProjectButton } from './archive-project-buttons';
import { ArchivedByLine } from './archived-banner';
import { LocationLine } from './location-line';

const photoCount = (count: number) => (count === 1 ? '1 photo' : `${count} photos`);

interface ArchivedProjectsListProps {
  projects: Project[];
  /** Other features' views of a restored project and its photos (the page knows which). */
  invalidate?: ExtraInvalidations<Project, void>;
  /** Called with the project once it is restored (it leaves this list). */
  onRestored: (project: Project) => void;
}

/**
 * /projects/archived's list: name (to the project's page), location, who archived it and when,
 * its photo count, and RESTORE (with a confirmation) for its creator or an admin. A table from
 * the `sm` breakpoint up; on a phone one card per project, so nothing scrolls sideways.
 */
export function ArchivedProjectsList({
  projects,
  invalidate,
  onRestored,
}: ArchivedProjectsListProps) {
  const user = useCurrentUser();
  // Read before the first paint (noSsr), so a phone never draws the table first.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const restore = (project: Project) =>
    canArchiveProject(user, project) ? (
      <RestoreProjectButton
        project={project}
        withName
        size="small"
        invalidate={invalidate}
        onDone={onRestored}
      />
    ) : null;

  if (phone) {
    return (
      <Box
        component="ul"
        aria-label="Archived projects"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}
      >
        {projects.map((project) => (
          <Paper
            component="li"
            variant="outlined"
            key={project.id}
            sx={{ px: 1.5, py: 1.25, minWidth: 0 }}
          >
            <Link
              component={RouterLink}
              to={paths.project(project.id)}
              underline="hover"
              color="inherit"
              sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
            >
              {project.name}
            </Link>
            <LocationLine location={project.location} />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              Archived <ArchivedByLine project={project} /> · {photoCount(project.uploadsCount)}
            </Typography>
            {canArchiveProject(user, project) ? <Box sx={{ mt: 1 }}>{restore(project)}</Box> : null}
          </Paper>
        ))}
      </Box>
    );
  }

  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Archived projects" sx={{ minWidth: 640 }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Name</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>Location</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>Archived</TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }}>
              Photos
            </TableCell>
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {projects.map((project) => (
            <TableRow key={project.id}>
              <TableCell sx={{ fontWeight: 500, maxWidth: 320, overflowWrap: 'anywhere' }}>
                <Link component={RouterLink} to={paths.project(project.id)} underline="hover">
                  {project.name}
                </Link>
              </TableCell>
              <TableCell sx={{ maxWidth: 240, overflowWrap: 'anywhere' }}>
                {project.location}
              </TableCell>
              <TableCell>
                <ArchivedByLine project={project} />
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {project.uploadsCount}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {restore(project)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
