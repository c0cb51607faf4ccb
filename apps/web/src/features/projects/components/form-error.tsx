import Alert from '@mui/material/Alert';
import { ApiError, errorMessage } from '@/lib/api-client';

/** The server's answer to a failed save, listed below the form (spec §8): message, then each field problem. */
export function FormError({ error }: { error: unknown }) {
  const message = errorMessage(error);
  const details = error instanceof ApiError ? (error.details ?? []) : [];
  const problems = [...new Set(details.map((detail) => detail.message))].filter(
    (problem) => problem !== message,
  );
  return (
    <Alert severity="error" role="alert">
      {message}
      {problems.length > 0 ? (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
