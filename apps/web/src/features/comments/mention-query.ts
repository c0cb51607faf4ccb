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
