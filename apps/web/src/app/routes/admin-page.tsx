import Button from '@mui/material/Button';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CreateUserForm } from '@/features/users/components/create-user-form';
import { InviteUserForm } from '@/features/users/components/invite-user-form';
import { WorkspaceNameForm } from '@/features/reports/components/workspace-name-form';
import { UserList } from '@/features/users/components/user-list';

/**
 * /admin, behind the admin guard: the Create section and the List of non-admin users (spec §2).
 * Create invites a member with a one-time link by default, where they choose their own password;
 * the spec's form, where the admin types a password for them, stays one click away. Under them,
 * the company or team name printed on report covers (issue 16).
 */
export function AdminPage() {
  useDocumentTitle('Users management');
  const [withPassword, setWithPassword] = useState(false);
  return (
    <>
      <PageHeader title="Users management" />
      <Section
        title="Create"
        action={
          <Button size="small" onClick={() => setWithPassword((on) => !on)}>
            {withPassword ? 'Invite with a link instead' : 'Set a password instead'}
          </Button>
        }
      >
        {withPassword ? <CreateUserForm /> : <InviteUserForm />}
      </Section>
      <Section title="List">
        <UserList />
      </Section>
      <Section title="Reports">
        <WorkspaceNameForm />
      </Section>
    </>
  );
}
