import { paths } from '@/lib/paths';

/** The query parameter of a project page that filters its uploads by one tag. */
export const PROJECT_TAG_PARAM = 'tag';

/** A project's page with its uploads filtered by `tag`. */
export const projectTagPath = (projectId: number, tag: string) =>
  `${paths.project(projectId)}?${new URLSearchParams({ [PROJECT_TAG_PARAM]: tag }).toString()}`;
