import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import { Component, type ReactNode } from 'react';
import { useLocation, type Location } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Last resort when rendering a route throws: say so and offer a reload, never a stack trace. */
export function RouteErrorPage({ error }: { error: unknown }) {
  useDocumentTitle('Something went wrong');
  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <PageHeader title="Something went wrong" />
      <EmptyState
        message={errorMessage(error)}
        action={
          <Button variant="contained" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      />
    </Container>
  );
}

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  /** The location the error happened at: going elsewhere (e.g. Back) renders the routes again. */
  location: Location;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    return props.location === state.location
      ? null
      : { error: undefined, location: props.location };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <RouteErrorPage error={this.state.error} />
    );
  }
}

/*
 * The routes' error boundary, in place of the data router's errorElement: the app runs on the
 * declarative BrowserRouter (the data router's loaders and actions are not used, and its code
 * was a third of the router in the first download).
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorBoundary location={useLocation()}>{children}</ErrorBoundary>;
}
