import { unreadCountSchema } from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';
import { showCount, showRead, undoShowRead } from './mark-read-cache';

/** POST /api/notifications/{id}/read: idempotent; answers the unread count left. */
export const markNotificationRead = (id: number) =>
  api.post(`/api/notifications/${id}/read`, unreadCountSchema);

/**
 * Marks one notification read as it is opened: shown read (and the bell lowered) at once, put
 * back if the call fails; then the count is asked again. The page may be left meanwhile (opening
 * navigates away), so all of it is the mutation's own, not the caller's.
 */
export const useMarkNotificationRead = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: (id: number) => showRead(queryClient, new Set([id])),
    onSuccess: (answer) => showCount(queryClient, answer.count),
    onError: (_error, _id, snapshot) => undoShowRead(queryClient, snapshot),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.unread() }),
  });
};
