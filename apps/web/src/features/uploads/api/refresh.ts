import type { QueryClient } from '@tanstack/react-query';
import { uploadKeys } from './keys';

/**
 * After an upload is added, changed or deleted: refresh every upload list, and everything other
 * features show about uploads (a project's count, cover and updated-at, a member's upload count).
 * Those live in other features' caches, whose keys this feature does not know, so all non-upload
 * queries are marked stale too; only the ones on screen refetch now.
 */
export function refreshAfterUploadChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const [root, kind] = query.queryKey;
      if (root === uploadKeys.all[0]) return kind !== uploadKeys.details()[1];
      return root !== 'auth';
    },
  });
}
