import type { QueryKey } from '@tanstack/react-query';
import { projectKeys } from '@/features/projects/api/keys';
import { uploadKeys } from '@/features/uploads/api/keys';
import { userKeys } from '@/features/users/api/keys';

/*
 * What other features show about a change, for the pages that compose them. A feature's own
 * mutation refreshes its own views; these are the rest, named here because only app/ may know
 * every feature's keys.
 */

/**
 * An upload was added to, changed in or removed from `projectId` by member `creatorId`: the
 * project's count, cover and updated-at (its page and every project list, members' project
 * lists included) and the member's upload count.
 */
export const afterUploadChange = (projectId: number, creatorId: number): QueryKey[] => [
  projectKeys.detail(projectId),
  projectKeys.lists(),
  userKeys.allMemberProjects(),
  userKeys.profile(creatorId),
];

/** A project was edited: the views outside the projects feature that show its name. */
export const afterProjectEdit = (): QueryKey[] => [
  userKeys.allMemberProjects(),
  uploadKeys.details(),
];
