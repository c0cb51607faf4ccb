import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';

/** An upload id that does not exist (or no longer does). */
export function UploadNotFound() {
  useDocumentTitle('Photo not found');
  return (
    <>
      <PageHeader title="Photo not found" />
      <EmptyState
        message="There is no photo at this address."
        description="It may have been deleted, or the link may be mistyped."
        action={
          <Button component={RouterLink} to={paths.latestUploads} variant="contained">
            Latest uploads
          </Button>
        }
      />
    </>
  );
}
