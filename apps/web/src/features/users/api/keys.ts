/** Query keys of the users feature: one root, so an account change can refresh every view of people. */
export const userKeys = {
  all: ['users'] as const,
  /** The admin's list of non-admin accounts. */
  list: () => [...userKeys.all, 'list'] as const,
  /** The team page's profiles (count + list). */
  profiles: () => [...userKeys.all, 'profiles'] as const,
  profile: (id: number) => [...userKeys.all, 'profile', id] as const,
  /** The projects a member created, as their profile lists them. */
  memberProjects: (id: number) => [...userKeys.allMemberProjects(), id] as const,
  /** Every member's project list (their counts and covers change with any upload). */
  allMemberProjects: () => [...userKeys.all, 'projects'] as const,
};
