import type { Generated, Insertable } from 'kysely';

/**
 * Table types. Timestamps are ISO-8601 UTC text (sortable, identical on SQLite and PostgreSQL);
 * booleans are 0/1 integers for the same reason.
 */
interface UsersTable {
  id: Generated<number>;
  email: string;
  firstname: string;
  lastname: string;
  password_hash: string;
  is_admin: number;
  is_active: number;
  projects_count: Generated<number>;
  uploads_count: Generated<number>;
  created_at: string;
  updated_at: string;
  deactivated_at: string | null;
}

interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

interface LoginFailuresTable {
  key: string;
  window_start: string;
  count: number;
  last_attempt_at: string | null;
}

/** Account+IP pairs that signed in successfully (`key` is `email|ip`). */
interface LoginKnownSourcesTable {
  key: string;
  last_success_at: string;
}

interface SettingsTable {
  key: string;
  value: string;
}

interface ProjectsTable {
  id: Generated<number>;
  name: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  creator_id: number;
  uploads_count: Generated<number>;
  archived_at: string | null;
  /** Who archived the project; null while it is open. */
  archived_by: number | null;
  created_at: string;
  updated_at: string;
}

interface ProjectMarksTable {
  user_id: number;
  project_id: number;
  created_at: string;
}

export interface UploadsTable {
  id: Generated<number>;
  project_id: number;
  creator_id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  preview_key: string;
  formatted_key: string;
  original_key: string;
  original_type: string;
  original_bytes: number;
  formatted_width: number;
  formatted_height: number;
  preview_width: number;
  preview_height: number;
  captured_at: string | null;
  latitude: number | null;
  longitude: number | null;
  camera: string | null;
  /** The client's idempotency key (`clientId`); unique per creator, null when none was sent. */
  client_id: string | null;
  /** The normalised tags as a JSON array of strings (the same pairs as `upload_tags`). */
  tags: Generated<string>;
  /** Comments on the upload, kept by the comments module. */
  comments_count: Generated<number>;
  /** SHA-256 (hex) of the stored original; null for photos uploaded before reports existed. */
  original_sha256: Generated<string | null>;
}

interface UploadTagsTable {
  upload_id: number;
  tag: string;
}

interface CommentsTable {
  id: Generated<number>;
  upload_id: number;
  author_id: number;
  body: string;
  created_at: string;
  /** When the author last changed the text; null if never. */
  edited_at: string | null;
}

interface CommentMentionsTable {
  comment_id: number;
  user_id: number;
}

/** Something that happened in a project (issue 15); `data` is JSON text kept with it. */
interface EventsTable {
  id: Generated<number>;
  kind: string;
  actor_id: number;
  project_id: number;
  upload_id: number | null;
  comment_id: number | null;
  /** The report of a `report.created` event. */
  report_id: Generated<number | null>;
  data: Generated<string>;
  created_at: string;
}

/** One member's notification: one event, or a group of uploads (`count`) keyed by the newest. */
interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  event_id: number;
  kind: string;
  reason: string;
  actor_id: number;
  project_id: number;
  upload_id: number | null;
  count: Generated<number>;
  created_at: string;
  updated_at: string;
  read_at: string | null;
}

/** Which kinds of notification a member gets (0/1); no row means all of them. */
interface NotificationSettingsTable {
  user_id: number;
  uploads: number;
  comments: number;
  mentions: number;
  projects: number;
  reports: number;
  updated_at: string;
}

interface InvitationsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_by: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A photo report (issue 16); see the reports migration. */
export interface ReportsTable {
  id: Generated<number>;
  project_id: number;
  author_id: number;
  type: string;
  title: string;
  intro: string;
  team_name: string;
  time_zone: string;
  /** Inclusive days, `YYYY-MM-DD`. */
  date_from: string;
  date_to: string;
  /** Photos per page: 1, 2 or 4. */
  layout: number;
  photo_count: number;
  /** queued | generating | ready | failed */
  status: string;
  /** Photos drawn so far by the running generation. */
  progress: Generated<number>;
  /**
   * The running generation's claim (a random token), null unless `generating`: every write of
   * that run is guarded by it, so a run whose report was taken over writes nothing.
   */
  claim_token: string | null;
  /** Claims since the report was last queued by a person (the cap on crash loops). */
  attempts: Generated<number>;
  error: string | null;
  pdf_key: string | null;
  pdf_bytes: number | null;
  pdf_pages: number | null;
  created_at: string;
  updated_at: string;
  /** When the PDF now stored was finished; null until the first one is. */
  generated_at: string | null;
}

interface ReportPhotosTable {
  report_id: number;
  /** 1-based order in the report. */
  position: number;
  /** Null once the photo has been deleted. */
  upload_id: number | null;
  /** The photo's name when it was added (kept after a delete). */
  name: string;
  caption: string;
  /** The SHA-256 of the original the PDF printed; null until first generated. */
  sha256: string | null;
}

interface ReportLinksTable {
  id: Generated<number>;
  report_id: number;
  token_hash: string;
  created_by: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  downloads: Generated<number>;
  last_download_at: string | null;
}

/**
 * One searchable thing (a project, an upload, a person or a report), kept in step by triggers
 * (see the search-index and search-reports migrations). PostgreSQL adds a `document` tsvector;
 * SQLite indexes the text in one FTS5 table per kind, `search_fts_<kind>`.
 */
interface SearchDocumentsTable {
  id: Generated<number>;
  kind: 'project' | 'upload' | 'person' | 'report';
  ref_id: number;
  title: string;
  body: string;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  login_known_sources: LoginKnownSourcesTable;
  settings: SettingsTable;
  projects: ProjectsTable;
  project_bookmarks: ProjectMarksTable;
  project_follows: ProjectMarksTable;
  uploads: UploadsTable;
  search_documents: SearchDocumentsTable;
  upload_tags: UploadTagsTable;
  comments: CommentsTable;
  comment_mentions: CommentMentionsTable;
  events: EventsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  project_mutes: ProjectMarksTable;
  invitations: InvitationsTable;
  reports: ReportsTable;
  report_photos: ReportPhotosTable;
  report_links: ReportLinksTable;
}

export type NewUserRow = Insertable<UsersTable>;
