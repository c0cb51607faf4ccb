import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { errorMessage } from '@/lib/api-client';

interface ErrorStateProps {
  /** What failed; an ApiError shows the server's message. */
  error: unknown;
  title?: string;
  /** Shows a RETRY button, e.g. a query's `refetch`. */
  onRetry?: () => void;
  retrying?: boolean;
}

/** A load that failed: the server's message and a way to try again. */
export function ErrorState({ error, title, onRetry, retrying = false }: ErrorStateProps) {
  return (
    <Alert
      severity="error"
      variant="outlined"
      sx={{ bgcolor: 'background.paper', alignItems: 'center' }}
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      {errorMessage(error)}
    </Alert>
  );
}
