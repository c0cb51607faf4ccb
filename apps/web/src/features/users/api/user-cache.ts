import type { User } from '@sitelog/shared';
import type { QueryClient } from '@tanstack/react-query';
import { userKeys } from './keys';

/**
 * After an admin changed an account: the answered user replaces its row in the cached list, so
 * the list changes without a reload, and the team views that count people are refreshed.
 */
export async function applyUpdatedUser(queryClient: QueryClient, user: User): Promise<void> {
  queryClient.setQueryData<User[]>(userKeys.list(), (list) =>
    list?.map((u) => (u.id === user.id ? user : u)),
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: userKeys.profiles() }),
    queryClient.invalidateQueries({ queryKey: userKeys.profile(user.id) }),
  ]);
}
