import type { QueryKey } from '@tanstack/react-query';
import { mapKeys } from '@/features/maps/api/keys';
import { notificationKeys } from '@/features/notifications/api/keys';
import { projectKeys } from '@/features/projects/api/keys';
import { searchKeys } from '@/features/search/api/keys';
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
 * lists included), the member's upload count, and the maps' pins (a move changes two projects'
 * pins; the all-projects map shows counts), and search results (the photo's words, counts).
 */
export const afterUploadChange = (projectId: number, creatorId: number): QueryKey[] => [
  projectKeys.detail(projectId),
  projectKeys.lists(),
  userKeys.allMemberProjects(),
  userKeys.profile(creatorId),
  mapKeys.all,
  searchKeys.all,
];

/**
 * A project was edited: the views outside the projects feature that show its name, the
 * all-projects map (its name, place and coordinates) and search results (its words).
 */
export const afterProjectEdit = (): QueryKey[] => [
  userKeys.allMemberProjects(),
  uploadKeys.details(),
  mapKeys.projects(),
  searchKeys.all,
];

/**
 * A project was archived or restored: the member's project lists (it leaves or rejoins them),
 * its photos wherever they are shown (their "Archived" mark, and the feeds that leave out an
 * archived project's photos), the maps (its pin) and search results (shown only when asked).
 */
export const afterProjectArchive = (): QueryKey[] => [
  userKeys.allMemberProjects(),
  uploadKeys.all,
  mapKeys.all,
  searchKeys.all,
];

/**
 * A comment was added to or deleted from upload `uploadId`: the photo's comment count, on the
 * photo and on its tiles in every feed.
 */
export const afterCommentChange = (uploadId: number): QueryKey[] => [
  uploadKeys.detail(uploadId),
  uploadKeys.lists(),
];

/**
 * A report was re-generated: search results show its status. (The reports feature refreshes
 * its own lists and the report.)
 */
export const afterReportChange = (): QueryKey[] => [searchKeys.all];

/**
 * A report was deleted: search results, and the timeline and notifications, whose entries for
 * it are deleted with it (the unread count may drop).
 */
export const afterReportDelete = (): QueryKey[] => [searchKeys.all, notificationKeys.all];
