import { PageHeader } from '@/components/page-header';
import { UnderConstruction } from '@/components/under-construction';
import { useDocumentTitle } from '@/lib/use-document-title';

/** /projects/archived (the menu's Archive): a placeholder until archiving is built (spec §2, §4). */
export function ArchivedProjectsPage() {
  useDocumentTitle('Archived projects');
  return (
    <>
      <PageHeader title="Archived projects" />
      <UnderConstruction whatWillBeHere="Finished projects that have been archived will be listed here, with their photos kept read-only." />
    </>
  );
}
