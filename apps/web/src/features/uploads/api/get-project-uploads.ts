import { useInfiniteQuery } from '@tanstack/react-query';
import { feedInfiniteOptions } from './feed-pages';
import { uploadKeys } from './keys';

/** GET /api/upload/project/{id}/latest, page by page: a project's uploads, newest first. */
export const projectUploadsQueryOptions = (projectId: number) =>
  feedInfiniteOptions(uploadKeys.project(projectId), `/api/upload/project/${projectId}/latest`);

export const useProjectUploads = (projectId: number) =>
  useInfiniteQuery(projectUploadsQueryOptions(projectId));
