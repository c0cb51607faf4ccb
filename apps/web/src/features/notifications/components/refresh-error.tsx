import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { errorMessage } from '@/lib/api-client';

/**
 * A refresh of a list already shown failed (the poll saw the count move, the window got the
 * focus back): the rows loaded before stay, with this small note above them and RETRY, instead
 * of an error screen in their place.
 */
export function RefreshError({
  error,
  what,
  onRetry,
  retrying,
}: {
  error: unknown;
  /** What is listed: "notifications", "events". */
  what: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ mb: 2, alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
          Retry
        </Button>
      }
    >
      {`Could not refresh the ${what}; showing them as last loaded. ${errorMessage(error)}`}
    </Alert>
  );
}
