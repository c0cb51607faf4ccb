import { PageHeader } from '@/components/page-header';
import { Section } from '@/components/section';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CreateUserForm } from '@/features/users/components/create-user-form';
import { UserList } from '@/features/users/components/user-list';

/** /admin, behind the admin guard: the Create form and the List of non-admin users (spec §2). */
export function AdminPage() {
  useDocumentTitle('Users management');
  return (
    <>
      <PageHeader title="Users management" />
      <Section title="Create">
        <CreateUserForm />
      </Section>
      <Section title="List">
        <UserList />
      </Section>
    </>
  );
}
