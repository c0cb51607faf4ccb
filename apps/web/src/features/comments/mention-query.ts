import { commentLimits, findMentions, foldName, type MentionCandidate } from '@sitelog/shared';

/** What is being typed after an `@`, where the caret is: the text to complete and where it is. */
export interface MentionQuery {
  /** The index of the `@`. */
  start: number;
  /** The caret (the end of what is replaced). */
  end: number;
  /** What follows the `@` up to the caret: the start of a name. */
  query: string;
}

/** Letters (with marks), then at most two more words: a first name and a last name or two. */
const TYPED_NAME = /^[\p{L}\p{M}][\p{L}\p{M}\p{N}'’.-]*(?: [\p{L}\p{M}\p{N}'’.-]*){0,2}$/u;
const WORD = /[\p{L}\p{N}\p{M}]/u;

/**
 * The mention being typed at `caret`: an `@` at the start of the text or after a character that
 * is not a letter or digit (an email address is not a mention), followed by letters up to the
 * caret, within one line. Null when the caret is not in one.
 */
export function mentionQueryAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1 || caret - at > 60) return null;
  if (at > 0 && WORD.test(before.charAt(at - 1))) return null;
  const query = before.slice(at + 1);
  if (!TYPED_NAME.test(query)) return null;
  return { start: at, end: caret, query };
}

/**
 * Whether `person` may complete `query` as typed now: their first, last or full name starts with
 * it, accents and case ignored (the server's rule for `/api/user/mentionable`). An answer shown
 * may be for what was typed a moment earlier (the lookup waits for a pause, and the last answer
 * stays while the next is asked): "@Ann Lee said" must not be offered Ann Lee, whose insertion
 * would replace "said".
 */
export function completes(person: MentionCandidate, query: string): boolean {
  const typed = foldName(query);
  return [person.firstname, person.lastname, `${person.firstname} ${person.lastname}`].some(
    (name) => foldName(name).startsWith(typed),
  );
}

/**
 * The text with the typed `@query` replaced by `@Firstname Lastname ` (a space after it, so the
 * next word starts apart), and where the caret goes: just after it. When the text already goes on
 * with a space, that one is used.
 */
export function insertMention(
  text: string,
  at: MentionQuery,
  person: { firstname: string; lastname: string },
): { text: string; caret: number } {
  const name = `@${person.firstname.trim()} ${person.lastname.trim()}`;
  const rest = text.slice(at.end);
  const spaced = rest.startsWith(' ') ? name : `${name} `;
  const caret = at.start + spaced.length + (rest.startsWith(' ') ? 1 : 0);
  return { text: text.slice(0, at.start) + spaced + rest, caret };
}

/** The members picked in the `@` list, newest first: `person` moves to the front. */
export function addPick<P extends MentionCandidate>(picked: readonly P[], person: P): P[] {
  return [person, ...picked.filter((p) => p.id !== person.id)];
}

/**
 * What a comment request's `mentions` holds: the ids of the picked members whose `@Name` the text
 * still holds (newest pick first, at most `commentLimits.pickedMax`). The server needs them only
 * to tell apart two members with the same name; of two such picks written once, the newest counts.
 */
export function pickedIds(text: string, picked: readonly MentionCandidate[]): number[] {
  const named = new Set(findMentions(text, picked).map((span) => span.person.id));
  return picked
    .filter((p) => named.has(p.id))
    .map((p) => p.id)
    .slice(0, commentLimits.pickedMax);
}
