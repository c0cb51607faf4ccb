import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Query keys a page adds to a mutation's own invalidations: the other things on screen that show
 * what changed. A feature knows only its own keys; the page, which composes features, knows which
 * of the others are affected. Either a list, or a function of the mutation's answer and input
 * (e.g. the project an upload was moved to).
 */
export type ExtraInvalidations<TData = unknown, TVariables = unknown> =
  readonly QueryKey[] | ((data: TData, variables: TVariables) => readonly QueryKey[]);

/** Marks `keys` stale (and refetches those on screen); resolves when the refetches are done. */
export async function invalidateKeys(
  queryClient: QueryClient,
  keys: readonly QueryKey[],
): Promise<void> {
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** Resolves the caller's extra invalidations for one mutation result. */
export function extraKeys<TData, TVariables>(
  extra: ExtraInvalidations<TData, TVariables> | undefined,
  data: TData,
  variables: TVariables,
): readonly QueryKey[] {
  if (!extra) return [];
  return typeof extra === 'function' ? extra(data, variables) : extra;
}
