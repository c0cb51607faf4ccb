import { NotFoundState } from '@/components/not-found-state';
import { paths } from '@/lib/paths';

export function NotFoundPage() {
  return (
    <NotFoundState
      title="Page not found"
      message="There is no page at this address."
      description="It may have moved, or the link may be mistyped."
      to={paths.home}
      actionLabel="Go home"
    />
  );
}
