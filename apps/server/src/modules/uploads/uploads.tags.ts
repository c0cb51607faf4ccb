// An upload's tags (issue 15). Two copies, kept equal by the one writer here, in the caller's
// transaction: `uploads.tags`, the JSON list every upload row carries (feeds read it with the row,
// in the order the tags were added), and `upload_tags`, one row per (upload, tag), which the feed
// filter and the suggestions read. Tags arrive normalised and merged by the contract
// (`tagListSchema`); this module never sees a raw one.
import { tagLimits, type TagSuggestion } from '@sitelog/shared';
import type { Database } from '../../db/database.js';
import * as repo from './uploads.repository.js';

/** `uploads.tags` of an upload without tags (the column's default). */
const NO_TAGS = '[]';

/** The tags an `uploads.tags` value holds (a JSON array of strings; anything else reads as none). */
export function readTags(column: string): string[] {
  if (column === NO_TAGS) return [];
  try {
    const parsed: unknown = JSON.parse(column);
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

/** True when two tag lists are the same, in the same order. */
export const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

/**
 * Sets an upload's tags to `tags` (normalised, no duplicates), both copies. `fresh`: the row was
 * just inserted in this transaction and has no pairs yet.
 */
export async function writeUploadTags(
  trx: Database,
  uploadId: number,
  tags: readonly string[],
  options: { fresh?: boolean } = {},
): Promise<void> {
  const fresh = options.fresh ?? false;
  if (fresh && tags.length === 0) return;
  await repo.setUploadTagsColumn(trx, uploadId, JSON.stringify(tags));
  await repo.replaceUploadTagPairs(trx, uploadId, tags, { fresh });
}

/**
 * Existing tags starting with `prefix` (normalised; all when empty), most used first, then
 * alphabetical, at most `tagLimits.suggestions`; counted over `projectId`'s uploads when given.
 */
export async function suggestTags(
  db: Database,
  prefix: string,
  projectId?: number,
): Promise<TagSuggestion[]> {
  const rows = await repo.listTagSuggestions(db, {
    prefix,
    limit: tagLimits.suggestions,
    ...(projectId === undefined ? {} : { projectId }),
  });
  return rows.map((row) => ({ tag: row.tag, count: Number(row.count) }));
}
