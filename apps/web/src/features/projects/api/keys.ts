/** Query keys of the projects feature: one root, so a change can refresh every project list. */
export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  mine: () => [...projectKeys.lists(), 'mine'] as const,
  bookmarked: () => [...projectKeys.lists(), 'bookmarked'] as const,
  bookmarkedOrFollowed: () => [...projectKeys.lists(), 'bookmarked-or-followed'] as const,
  rows: () => [...projectKeys.lists(), 'rows'] as const,
  /** Archived projects (/projects/archived); a list too, so any project change refreshes it. */
  archived: () => [...projectKeys.lists(), 'archived'] as const,
  details: () => [...projectKeys.all, 'detail'] as const,
  detail: (id: number) => [...projectKeys.details(), id] as const,
  placesProvider: () => [...projectKeys.all, 'places-provider'] as const,
  places: (provider: string, query: string) =>
    [...projectKeys.all, 'places', provider, query] as const,
};
