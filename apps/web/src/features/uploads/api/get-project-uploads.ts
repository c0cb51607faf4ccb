import { useInfiniteQuery } from '@tanstack/react-query';
import { feedInfiniteOptions } from './feed-pages';
import { uploadKeys } from './keys';

/**
 * GET /api/upload/project/{id}/latest, page by page: a project's uploads, newest first; only
 * those tagged `tag` when given (`?tag=`).
 */
export const projectUploadsQueryOptions = (projectId: number, tag?: string) =>
  tag === undefined
    ? feedInfiniteOptions(uploadKeys.project(projectId), `/api/upload/project/${projectId}/latest`)
    : feedInfiniteOptions(
        uploadKeys.projectTagged(projectId, tag),
        `/api/upload/project/${projectId}/latest`,
        { tag },
      );

export const useProjectUploads = (projectId: number, tag?: string) =>
  useInfiniteQuery(projectUploadsQueryOptions(projectId, tag));
