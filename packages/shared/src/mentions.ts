/**
 * Mentions in a comment's text: `@Firstname Lastname`. One rule for both sides: the server finds
 * who a comment names (against the active members), the web finds where the text names them
 * (against the comment's `mentions`) to draw them as links.
 *
 * At each `@` that starts the text or follows a character that is not a letter, digit or mark
 * (so `ann@example.com` is not a mention), the longest candidate's full name that the text goes on
 * with is taken, ignoring accents and case ("@zoe muller" names Zoë Müller), when it is followed by
 * the end of the text or a character that is not a letter or digit (so "@Ann Leeds" never names
 * Ann Lee, and "@Ann Lee," does). Anything else after an `@` is plain text.
 *
 * Two candidates may share a full name. Such a name is ambiguous: with `picked` (the ids the
 * writer chose in the `@` list; the server passes them) it names the picked one among them, and
 * nobody when none was picked; without `picked` (the web drawing a comment against the members
 * the server says it names, who are all named) it names them in turn.
 */

/** Someone a mention may name. */
export interface MentionCandidate {
  id: number;
  firstname: string;
  lastname: string;
}

/** Where the text names a candidate: `text.slice(start, end)` is `@` and the name as typed. */
export interface MentionSpan<P extends MentionCandidate = MentionCandidate> {
  start: number;
  end: number;
  person: P;
}

const MARKS = /\p{M}/gu;
const WORD = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

/** One character without accents, in lower case; any white space is one space. */
function foldChar(ch: string): string {
  if (SPACE.test(ch)) return ' ';
  // NFD again after lower-casing: 'İ' lowers to 'i' plus a combining dot.
  return ch.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFD').replace(MARKS, '');
}

/** A name as the text must spell it after folding: accents and case gone, one space between words. */
export function foldName(name: string): string {
  return [...name.trim().replace(/\s+/gu, ' ')].map(foldChar).join('');
}

/**
 * The folded text and, for each of its code units, the index in `text` of the character it came
 * from (with one more entry for the end), so a match in the folded text maps back to the text.
 */
function foldWithOrigins(text: string): { folded: string; origins: number[] } {
  let folded = '';
  const origins: number[] = [];
  let index = 0;
  for (const ch of text) {
    const f = foldChar(ch);
    for (let k = 0; k < f.length; k += 1) origins.push(index);
    folded += f;
    index += ch.length;
  }
  origins.push(text.length);
  return { folded, origins };
}

/** The character (code point) of `text` that ends just before `index`, or '' at the start. */
function charBefore(text: string, index: number): string {
  if (index === 0) return '';
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) return text.slice(index - 2, index);
  return text.charAt(index - 1);
}

/** The character (code point) of `text` that starts at `index`, or '' at the end. */
function charAt(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? '' : String.fromCodePoint(code);
}

export interface MentionOptions {
  /**
   * The ids the writer picked in the `@` list, newest first: how an ambiguous name is resolved
   * (the first picked one not named yet, else the first picked one; nobody when none is picked).
   * Ids of members the text does not name change nothing, nor do picks for unambiguous names.
   */
  picked?: readonly number[];
}

/** Who an ambiguous name (every candidate in `sharing` spells it) names at one spot, if anyone. */
function resolveAmbiguous<P extends MentionCandidate>(
  sharing: readonly P[],
  named: ReadonlySet<number>,
  picked: readonly number[] | undefined,
): P | undefined {
  const order =
    picked === undefined
      ? sharing
      : picked.flatMap((id) => sharing.filter((person) => person.id === id));
  return order.find((person) => !named.has(person.id)) ?? order[0];
}

/** The mentions in `text`, in order, against `candidates` (who may be named). */
export function findMentions<P extends MentionCandidate>(
  text: string,
  candidates: readonly P[],
  options: MentionOptions = {},
): MentionSpan<P>[] {
  if (!text.includes('@') || candidates.length === 0) return [];
  // Candidates by the first folded character of their name, longest name first.
  const byFirst = new Map<string, { name: string; person: P }[]>();
  for (const person of candidates) {
    const name = foldName(`${person.firstname} ${person.lastname}`);
    if (name === '') continue;
    const list = byFirst.get(name.charAt(0)) ?? [];
    list.push({ name, person });
    byFirst.set(name.charAt(0), list);
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.name.length - a.name.length);

  const { folded, origins } = foldWithOrigins(text);
  const spans: MentionSpan<P>[] = [];
  const named = new Set<number>();
  let from = 0;
  for (let at = folded.indexOf('@', from); at !== -1; at = folded.indexOf('@', from)) {
    from = at + 1;
    const start = origins[at] ?? 0;
    if (WORD.test(charBefore(text, start))) continue;
    const rest = at + 1;
    const list = byFirst.get(folded.charAt(rest)) ?? [];
    const match = list.find(
      ({ name }) =>
        folded.startsWith(name, rest) &&
        // The end of the text, or a character that does not continue the name's last word.
        !WORD.test(charAt(text, origins[rest + name.length] ?? text.length)),
    );
    if (!match) continue;
    const sharing = list.filter(({ name }) => name === match.name).map(({ person }) => person);
    const person =
      sharing.length === 1 ? match.person : resolveAmbiguous(sharing, named, options.picked);
    const endFolded = rest + match.name.length;
    from = endFolded;
    if (person === undefined) continue;
    named.add(person.id);
    spans.push({ start, end: origins[endFolded] ?? text.length, person });
  }
  return spans;
}
