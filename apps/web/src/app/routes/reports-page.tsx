import { PageHeader } from '@/components/page-header';
import { UnderConstruction } from '@/components/under-construction';
import { useDocumentTitle } from '@/lib/use-document-title';

/** /reports: the latest reports across projects; a placeholder until reports are built (spec §2). */
export function ReportsPage() {
  useDocumentTitle('Reports');
  return (
    <>
      <PageHeader title="Reports" />
      <UnderConstruction whatWillBeHere="The latest reports from every project (daily reports, safety walks, defect lists) will be listed here. To start one, open a project and choose a report in its Reports section." />
    </>
  );
}
