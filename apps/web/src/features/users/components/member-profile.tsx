import Alert from '@mui/material/Alert';
import type { Profile } from '@sitelog/shared';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';
import { LoadingState } from '@/components/loading-state';
import { NotFoundState } from '@/components/not-found-state';
import { PageHeader } from '@/components/page-header';
import { isNotFound } from '@/lib/is-not-found';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useRouteId } from '@/lib/use-route-id';
import { useProfile } from '../api/get-profile';

/** A profile address whose member does not exist (or whose id is not a number). */
export function MemberNotFound() {
  return (
    <NotFoundState
      title="Member not found"
      message="There is no team member at this address."
      description="The link may be mistyped. The team page lists everyone."
      to={paths.teams}
      actionLabel="See the team"
    />
  );
}

function MemberHeader({ profile }: { profile: Profile }) {
  const name = `${profile.firstname} ${profile.lastname}`;
  useDocumentTitle(name);
  return (
    <>
      <PageHeader title={name} />
      {profile.isActive ? null : (
        <Alert severity="info" variant="outlined" sx={{ mb: 3 }}>
          This member has been deactivated. Their projects and uploads stay on the team’s record.
        </Alert>
      )}
    </>
  );
}

interface MemberProfileProps {
  /** The member's projects and uploads, composed by the page from their own features. */
  children: (profile: Profile) => ReactNode;
}

/**
 * /profile/{id}: the member's name (and a note when deactivated), then the sections the page
 * passes in. Loading, failure and an unknown member each get their own state, never a blank page.
 */
export function MemberProfile({ children }: MemberProfileProps) {
  const id = useRouteId();
  const query = useProfile(id);
  if (id === null) return <MemberNotFound />;
  if (query.isPending) return <LoadingState label="Loading the profile…" />;
  if (query.isError) {
    if (isNotFound(query.error)) return <MemberNotFound />;
    return (
      <>
        <PageHeader title="Member" />
        <ErrorState
          error={query.error}
          title="Could not load the profile"
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      </>
    );
  }
  return (
    <>
      <MemberHeader profile={query.data} />
      {children(query.data)}
    </>
  );
}
