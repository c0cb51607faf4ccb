import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * /admin, behind the admin guard.
 * TODO(issue 5): the Create user form and the List of non-admin users (spec §2, §4).
 */
export function AdminPage() {
  useDocumentTitle('Users management');
  return <PageHeader title="Users management" />;
}
