import { PageHeader } from '@/components/page-header';
import { QueueOverview } from '@/features/uploads/queue/queue-overview';
import { useDocumentTitle } from '@/lib/use-document-title';

/** /uploads/queue (not in the spec): the photos still on this device, waiting to be sent. */
export function UploadQueuePage() {
  useDocumentTitle('Upload queue');
  return (
    <>
      <PageHeader
        title="Upload queue"
        subtitle="Photos taken on this device that have not reached the server yet."
      />
      <QueueOverview />
    </>
  );
}
