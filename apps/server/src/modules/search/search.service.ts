import type { searchQuerySchema, SearchResponse } from '@sitelog/shared';
import type { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { AuthUser } from '../auth/auth.service.js';
import { getProjects, type ProjectsDeps } from '../projects/projects.service.js';
import { listReportsByIds, type ReportsDeps } from '../reports/reports.service.js';
import { getUploads } from '../uploads/uploads.service.js';
import { getProfiles } from '../users/users.service.js';
import * as repo from './search.repository.js';
import { searchTerms } from './search.terms.js';

export type SearchDeps = ProjectsDeps & Pick<ReportsDeps, 'db' | 'links'>;
type SearchQuery = z.output<typeof searchQuerySchema>;

const kinds = {
  projects: 'project',
  uploads: 'upload',
  people: 'person',
  reports: 'report',
} as const;
type Section = keyof typeof kinds;

// ---- cursors -------------------------------------------------------------------------------

/** A page's cursor: the section's letter and the last hit, as base64url JSON. Opaque to clients. */
function encodeCursor(section: Section, hit: repo.SearchCursor): string {
  return Buffer.from(JSON.stringify([section[0], hit.score, hit.at, hit.id])).toString('base64url');
}

const INT32_MAX = 2_147_483_647;
/** A stored time: ISO 8601, with or without a zone (capture times keep the camera's clock). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})?$/;

const badCursor = () =>
  badRequest('before is not a cursor from a previous page of this search.', 'bad_cursor');

function decodeCursor(section: Section, cursor: string): repo.SearchCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(value) || value.length !== 4) throw badCursor();
  const [letter, score, at, id] = value as unknown[];
  if (
    letter !== section[0] ||
    typeof score !== 'number' ||
    !Number.isFinite(score) ||
    typeof at !== 'string' ||
    at.length > 40 ||
    !ISO_TIME.test(at) ||
    typeof id !== 'number' ||
    !Number.isInteger(id) ||
    id < 1 ||
    id > INT32_MAX
  )
    throw badCursor();
  return { score, at, id };
}

// ---- search --------------------------------------------------------------------------------

/** Orders `items` as `ids` (hydration answers rows in any order; a row gone meanwhile is left out). */
function inOrder<T extends { id: number }>(ids: number[], items: T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function searchSection<S extends Section>(
  deps: SearchDeps,
  section: S,
  terms: string[],
  query: SearchQuery,
) {
  const hits = await repo.findMatches(deps.db, kinds[section], {
    terms,
    archived: query.archived,
    limit: query.limit,
    after: query.before === undefined ? undefined : decodeCursor(section, query.before),
    uploads: {
      projectId: query.project,
      authorId: query.author,
      from: query.from,
      to: query.to,
      by: query.by,
    },
    // A report's author and the day it was created (`by` is the photos' alone).
    reports: {
      projectId: query.project,
      authorId: query.author,
      from: query.from,
      to: query.to,
    },
  });
  const page = hits.slice(0, query.limit);
  const last = page.at(-1);
  const next = hits.length > query.limit && last ? encodeCursor(section, last) : null;
  const ids = page.map((h) => h.id);
  return { ids, next };
}

/**
 * Searches the sections `query.type` names (each page's hits best first), then reads the hits
 * through their own modules, so a search result is the same Project, Upload, Profile or Report
 * every other call answers.
 */
export async function search(
  deps: SearchDeps,
  query: SearchQuery,
  viewer: AuthUser,
): Promise<SearchResponse> {
  const terms = searchTerms(query.q);
  const wanted = (section: Section) => query.type === 'all' || query.type === section;
  // The sections at once: on PostgreSQL each takes its own pooled connection (the four
  // round trips overlap); on SQLite the statements run one after another all the same.
  const [projects, uploads, people, reports] = await Promise.all([
    wanted('projects') ? searchSection(deps, 'projects', terms, query) : null,
    wanted('uploads') ? searchSection(deps, 'uploads', terms, query) : null,
    wanted('people') ? searchSection(deps, 'people', terms, query) : null,
    wanted('reports') ? searchSection(deps, 'reports', terms, query) : null,
  ]);
  const [projectItems, uploadItems, peopleItems, reportItems] = await Promise.all([
    projects ? getProjects(deps, projects.ids, viewer) : [],
    uploads ? getUploads(deps, uploads.ids, viewer) : [],
    people ? getProfiles(deps, people.ids) : [],
    reports ? listReportsByIds(deps, viewer, reports.ids) : [],
  ]);
  const response: SearchResponse = {};
  if (projects)
    response.projects = { items: inOrder(projects.ids, projectItems), next: projects.next };
  if (uploads) response.uploads = { items: inOrder(uploads.ids, uploadItems), next: uploads.next };
  if (people) response.people = { items: inOrder(people.ids, peopleItems), next: people.next };
  if (reports) response.reports = { items: inOrder(reports.ids, reportItems), next: reports.next };
  return response;
}
