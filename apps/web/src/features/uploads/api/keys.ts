/** Query keys of the uploads feature: one root, so a change can refresh every upload list at once. */
export const uploadKeys = {
  all: ['uploads'] as const,
  details: () => [...uploadKeys.all, 'detail'] as const,
  detail: (id: number) => [...uploadKeys.details(), id] as const,
  lists: () => [...uploadKeys.all, 'list'] as const,
  latest: (count: number) => [...uploadKeys.lists(), 'latest', count] as const,
  project: (projectId: number) => [...uploadKeys.lists(), 'project', projectId] as const,
  user: (userId: number) => [...uploadKeys.lists(), 'user', userId] as const,
  /** The project an upload is being added to, as the uploader shows it. */
  uploaderProject: (projectId: number) =>
    [...uploadKeys.all, 'uploader-project', projectId] as const,
};
