/** Query keys of the uploads feature: one root, so a change can refresh every upload list at once. */
export const uploadKeys = {
  all: ['uploads'] as const,
  details: () => [...uploadKeys.all, 'detail'] as const,
  detail: (id: number) => [...uploadKeys.details(), id] as const,
  lists: () => [...uploadKeys.all, 'list'] as const,
  latest: (count: number) => [...uploadKeys.lists(), 'latest', count] as const,
  project: (projectId: number) => [...uploadKeys.lists(), 'project', projectId] as const,
  /** A project's feed filtered by one tag (under the project's key: refreshed with it). */
  projectTagged: (projectId: number, tag: string) =>
    [...uploadKeys.project(projectId), 'tag', tag] as const,
  user: (userId: number) => [...uploadKeys.lists(), 'user', userId] as const,
  /** Tag suggestions: every prefix asked for, across the workspace or in one project. */
  tags: () => [...uploadKeys.all, 'tags'] as const,
  tagSuggestions: (q: string, projectId: number | null) =>
    [...uploadKeys.tags(), q, projectId] as const,
  /** The project an upload is being added to, as the uploader shows it. */
  uploaderProject: (projectId: number) =>
    [...uploadKeys.all, 'uploader-project', projectId] as const,
};
