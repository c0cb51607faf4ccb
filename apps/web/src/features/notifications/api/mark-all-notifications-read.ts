import { unreadCountSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';
import { showCount, showRead, undoShowRead } from './mark-read-cache';

/** POST /api/notifications/read-all: every notification of the member read; answers the count. */
export const markAllNotificationsRead = () =>
  api.post('/api/notifications/read-all', unreadCountSchema);

/**
 * MARK ALL AS READ: every notification shown read and the bell cleared at once, put back if the
 * call fails; then the list and the count are asked again (one may have arrived meanwhile).
 */
export const useMarkAllNotificationsRead = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: () => showRead(queryClient, 'all'),
    onSuccess: (answer) => showCount(queryClient, answer.count),
    onError: (_error, _input, snapshot) => undoShowRead(queryClient, snapshot),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: notificationKeys.unread() }),
        queryClient.invalidateQueries({ queryKey: notificationKeys.list() }),
      ]),
  });
};
