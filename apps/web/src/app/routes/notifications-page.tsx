import { PageHeader } from '@/components/page-header';
import { UnderConstruction } from '@/components/under-construction';
import { useDocumentTitle } from '@/lib/use-document-title';

/** /notifications (the menu's Events): a placeholder until notifications are built (spec §2). */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  return (
    <>
      <PageHeader title="Notifications" />
      <UnderConstruction whatWillBeHere="Comments to your uploads, new reports and new uploads in the projects you follow will appear here." />
    </>
  );
}
