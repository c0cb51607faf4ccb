// Who a comment names. The rule (`findMentions`, shared with the web, which draws the names as
// links) runs here against the ACTIVE members only: a deactivated member's name, or a name no
// member has, stays plain text, is not stored and notifies nobody.
import { findMentions, type MentionCandidate } from '@sitelog/shared';
import type { Database } from '../../db/database.js';
import { listActiveMembers } from './comments.repository.js';

/** The distinct ids `text` names among `candidates`, in the order the text first names them. */
export function mentionedIds(text: string, candidates: readonly MentionCandidate[]): number[] {
  return [...new Set(findMentions(text, candidates).map((span) => span.person.id))];
}

/** The active members `text` names (no query when the text has no `@`). */
export async function findMentionedMembers(db: Database, text: string): Promise<number[]> {
  if (!text.includes('@')) return [];
  return mentionedIds(text, await listActiveMembers(db));
}
