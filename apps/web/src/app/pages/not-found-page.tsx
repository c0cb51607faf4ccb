import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { useDocumentTitle } from '@/lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState
        message="There is no page at this address."
        description="It may have moved, or the link may be mistyped."
        action={
          <Button component={RouterLink} to={paths.home} variant="contained">
            Go home
          </Button>
        }
      />
    </>
  );
}
