/** Query keys of the reports feature. */
export const reportKeys = {
  all: ['reports'] as const,
  /** The project a report is being created for, as the report creator shows it. */
  creatorProject: (projectId: number) => [...reportKeys.all, 'creator-project', projectId] as const,
};
