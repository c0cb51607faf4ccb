import { ErrorState } from '@/components/error-state';
import { ListSkeleton } from '@/components/skeletons';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useProfiles } from '@/features/users/api/get-profiles';
import { MembersTable } from '@/features/users/components/members-table';
import { TeamInfo } from '@/features/users/components/team-info';

/** /teams: Team info, the active Members and the Deactivated members, each row opening a profile. */
export function TeamsPage() {
  useDocumentTitle('Team');
  const query = useProfiles();
  let content;
  if (query.isPending) content = <ListSkeleton label="Loading the team…" />;
  else if (query.isError) {
    content = (
      <ErrorState
        error={query.error}
        title="Could not load the team"
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    const { profiles } = query.data;
    content = (
      <>
        <Section title="Team info">
          <TeamInfo profiles={profiles} />
        </Section>
        <Section title="Members">
          <MembersTable
            label="Members"
            profiles={profiles.filter((p) => p.isActive)}
            emptyMessage="No active members."
          />
        </Section>
        <Section title="Deactivated members">
          <MembersTable
            label="Deactivated members"
            profiles={profiles.filter((p) => !p.isActive)}
            emptyMessage="No deactivated members."
          />
        </Section>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Team" />
      {content}
    </>
  );
}
