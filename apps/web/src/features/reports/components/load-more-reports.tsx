import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { ErrorState } from '@/components/error-state';
import { useOnline } from '@/lib/use-online';

/**
 * LOAD MORE under the reports while there is a next page; a page that failed says why (the
 * reports above stay) and the button tries again. Offline it waits for the connection.
 */
export function LoadMoreReports({
  query,
}: {
  query: Pick<
    UseInfiniteQueryResult,
    'hasNextPage' | 'isFetchNextPageError' | 'isFetchingNextPage' | 'error' | 'fetchNextPage'
  >;
}) {
  const online = useOnline();
  if (!query.hasNextPage) return null;
  return (
    <Stack spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
      {query.isFetchNextPageError ? (
        <Box sx={{ alignSelf: 'stretch' }}>
          <ErrorState error={query.error} title="Could not load more reports" />
        </Box>
      ) : null}
      <Button
        variant="outlined"
        onClick={() => void query.fetchNextPage()}
        loading={query.isFetchingNextPage && online}
        disabled={!online}
      >
        Load more
      </Button>
      {online ? null : (
        <Typography variant="body2" color="text.secondary">
          More will load when the connection returns.
        </Typography>
      )}
    </Stack>
  );
}
