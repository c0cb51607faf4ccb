import {
  notificationSettingsSchema,
  type NotificationSettings,
  type NotificationSettingsPatch,
} from '@sitelog/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** PATCH /api/notifications/settings: the kinds to change; answers the settings as they are now. */
export const updateNotificationSettings = (patch: NotificationSettingsPatch) =>
  api.patch('/api/notifications/settings', notificationSettingsSchema, patch);

const updateKey = [...notificationKeys.settings(), 'update'] as const;

/**
 * Saves a switch at once and shows it switched before the answer (optimistic). A failure puts
 * back only the kinds that call changed, so a switch flipped meanwhile keeps its own state; the
 * answer is shown once no other change is on its way (an earlier answer knows nothing of a later
 * change).
 */
export const useUpdateNotificationSettings = () => {
  const queryClient = useQueryClient();
  const key = notificationKeys.settings();
  return useMutation({
    mutationKey: updateKey,
    mutationFn: updateNotificationSettings,
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<NotificationSettings>(key);
      if (before) queryClient.setQueryData<NotificationSettings>(key, { ...before, ...patch });
      return { before };
    },
    onError: (_error, patch, context) => {
      const before = context?.before;
      if (!before) return;
      const undo = Object.fromEntries(
        Object.keys(patch).map((kind) => [kind, before[kind as keyof NotificationSettingsPatch]]),
      );
      queryClient.setQueryData<NotificationSettings>(key, (current) =>
        current ? { ...current, ...undo } : current,
      );
    },
    onSuccess: (settings) => {
      if (queryClient.isMutating({ mutationKey: updateKey }) <= 1)
        queryClient.setQueryData(key, settings);
    },
  });
};
