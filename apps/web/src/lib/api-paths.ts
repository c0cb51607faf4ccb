// The API paths that are also fetched ahead of their page's code (`prefetch`), in one place so
// the prefetch and the page's own call ask for exactly the same URL. Nothing here may import
// zod: the shell's first chunk uses it.
import { limits } from '@sitelog/shared/limits';

export const apiPaths = {
  /** GET: the spec's all-projects rows. */
  projectRows: '/api/project/all/list',
  /** GET: the viewer's bookmarked projects (Home). */
  bookmarkedProjects: '/api/project/bookmark',
  /** GET: the team's newest uploads. */
  latestUploads: (count: number) => `/api/upload/latest/${count}`,
} as const;

/** What each page asks for as it opens, by its path (see `preloadFirstPage`). */
export function firstPageData(pathname: string): string[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/')
    return [apiPaths.bookmarkedProjects, apiPaths.latestUploads(limits.latestUploadsHome)];
  if (path === '/projects/all') return [apiPaths.projectRows];
  return [];
}
