import { NotFoundState } from '@/components/not-found-state';
import { paths } from '@/lib/paths';

/** An upload id that does not exist (or no longer does). */
export function UploadNotFound() {
  return (
    <NotFoundState
      title="Photo not found"
      message="There is no photo at this address."
      description="It may have been deleted, or the link may be mistyped."
      to={paths.latestUploads}
      actionLabel="Latest uploads"
    />
  );
}
