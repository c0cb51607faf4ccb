import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import type { Project } from '@sitelog/shared';
import { useId, type Ref } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatDate } from '@/lib/format-date';
import { formatExactTime } from '@/lib/format-photo-time';
import { paths } from '@/lib/paths';

/** "by Dana Whitfield on Nov 22, 2026": who archived the project (a link) and when. */
export function ArchivedByLine({
  project,
}: {
  project: Pick<Project, 'archivedAt' | 'archivedBy'>;
}) {
  const { archivedAt, archivedBy } = project;
  return (
    <>
      {archivedBy ? (
        <>
          by{' '}
          <Link component={RouterLink} to={paths.memberProfile(archivedBy.id)}>
            {archivedBy.firstname} {archivedBy.lastname}
          </Link>
        </>
      ) : null}
      {archivedBy && archivedAt ? ' ' : null}
      {archivedAt ? (
        <>
          on{' '}
          <time dateTime={archivedAt} title={formatExactTime(archivedAt)}>
            {formatDate(archivedAt)}
          </time>
        </>
      ) : null}
    </>
  );
}

/**
 * The project page's notice that the project is archived: who archived it, when, and what that
 * means. A region named "Archived" (not an alert: it is the page's state, not news), focusable
 * so the page can move focus to it right after archiving.
 */
export function ArchivedBanner({
  project,
  ref,
}: {
  project: Pick<Project, 'archivedAt' | 'archivedBy'>;
  ref?: Ref<HTMLDivElement>;
}) {
  const titleId = useId();
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby={titleId}
      severity="info"
      variant="outlined"
      icon={<ArchiveOutlined />}
      sx={{ mb: 3, bgcolor: 'background.paper', '&:focus-visible': { outlineOffset: 2 } }}
    >
      <AlertTitle id={titleId}>Archived</AlertTitle>
      Archived <ArchivedByLine project={project} />. The project is read-only: no new photos, edits,
      bookmarks or follows, and it is hidden from the project lists. Its photos stay viewable.
    </Alert>
  );
}
