import { useEffect } from 'react';
import { useSession } from '@/lib/session';
import { useUnreadCountPolling } from '../api/get-unread-count';

/**
 * Keeps the bell's count fresh: polls while signed in (nothing signed out, nothing offline),
 * and asks at once when the window gets the focus back (TanStack Query itself follows only the
 * tab being shown or hidden). Draws nothing; the bell reads the count from the cache.
 */
export function UnreadPoller() {
  const signedIn = useSession() !== null;
  const { refetch } = useUnreadCountPolling(signedIn);
  useEffect(() => {
    if (!signedIn) return;
    const onFocus = () => void refetch({ cancelRefetch: false });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch, signedIn]);
  return null;
}
