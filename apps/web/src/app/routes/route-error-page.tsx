import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Last resort when rendering a route throws: say so and offer a reload, never a stack trace. */
export function RouteErrorPage() {
  useDocumentTitle('Something went wrong');
  const error = useRouteError();
  console.error(error);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : errorMessage(error);
  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <PageHeader title="Something went wrong" />
      <EmptyState
        message={message}
        action={
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      />
    </Container>
  );
}
