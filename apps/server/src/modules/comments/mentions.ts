// Who a comment names. The rule (`findMentions`, shared with the web, which draws the names as
// links) runs here against the ACTIVE members only: a deactivated member's name, or a name no
// member has, stays plain text, is not stored and notifies nobody. A name two active members
// share is settled by the ids the writer picked in the `@` list.
import { findMentions, type MentionCandidate } from '@sitelog/shared';
import type { Database } from '../../db/database.js';
import { listActiveMembers } from './comments.repository.js';

/**
 * The distinct ids `text` names among `candidates`, in the order the text first names them. A
 * name two candidates share names the one in `picked` (ids the writer chose in the `@` list,
 * newest first), or nobody when neither was picked.
 */
export function mentionedIds(
  text: string,
  candidates: readonly MentionCandidate[],
  picked: readonly number[] = [],
): number[] {
  return [...new Set(findMentions(text, candidates, { picked }).map((span) => span.person.id))];
}

/** The active members `text` names (no query when the text has no `@`); see `mentionedIds`. */
export async function findMentionedMembers(
  db: Database,
  text: string,
  picked: readonly number[] = [],
): Promise<number[]> {
  if (!text.includes('@')) return [];
  return mentionedIds(text, await listActiveMembers(db), picked);
}
