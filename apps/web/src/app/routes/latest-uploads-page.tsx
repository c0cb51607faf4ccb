import { limits } from '@sitelog/shared';
import { PageHeader } from '@/components/page-header';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useLatestUploads } from '@/features/uploads/api/get-latest-uploads';
import { NoUploads } from '@/features/uploads/components/no-uploads';
import { UploadsFeed } from '@/features/uploads/components/uploads-feed';

/** /uploads/latest ("Photos" in the menu): the team's 50 newest uploads (spec §9). */
export function LatestUploadsPage() {
  useDocumentTitle('Latest uploads');
  const query = useLatestUploads(limits.latestUploadsPage);
  return (
    <>
      <PageHeader
        title="Latest uploads"
        subtitle="The team's newest photos, across all projects."
      />
      <UploadsFeed
        query={query}
        label="Latest uploads"
        showProject
        headingLevel="h2"
        skeletonCount={12}
        empty={<NoUploads description="Photos uploaded to any project appear here." />}
      />
    </>
  );
}
