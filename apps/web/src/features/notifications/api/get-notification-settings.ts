import { notificationSettingsSchema } from '@sitelog/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { notificationKeys } from './keys';

/** GET /api/notifications/settings: which kinds notify the member, and the projects muted. */
export const getNotificationSettings = (signal?: AbortSignal) =>
  api.get('/api/notifications/settings', notificationSettingsSchema, { signal });

export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => getNotificationSettings(signal),
  });

export const useNotificationSettings = () => useQuery(notificationSettingsQueryOptions());
