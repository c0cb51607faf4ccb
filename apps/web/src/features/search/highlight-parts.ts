/*
 * Which parts of a text the search words match, found the way the server matches them: accents
 * and case ignored, each word as the start of a word in the text ("reba" marks the "Reba" of
 * "Rebar", "beton" the "Béton" of "Béton armé"). The text is folded (NFD, combining marks
 * dropped, lower case) with a map back to the original's indices, so the marks fall on the
 * characters as written, accents and all.
 */

/** Text folded for matching, and for each folded unit the original range it came from. */
interface FoldedText {
  text: string;
  /** Index in the original of the character each folded unit came from. */
  start: number[];
  /** Index in the original just after that character. */
  end: number[];
}

const COMBINING_MARKS = /\p{M}/gu;
const IS_COMBINING_MARK = /^\p{M}$/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const WORDS = /[\p{L}\p{N}]+/gu;

const foldChar = (char: string) =>
  // Lower-casing may decompose again ("İ" becomes "i" + a combining dot): normalize after it too.
  char.normalize('NFD').toLowerCase().normalize('NFD').replace(COMBINING_MARKS, '');

function foldWithMap(original: string): FoldedText {
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  let index = 0;
  // By code point, so a surrogate pair (an emoji) maps back as one character.
  for (const char of original) {
    const folded = foldChar(char);
    for (let unit = 0; unit < folded.length; unit++) {
      start.push(index);
      end.push(index + char.length);
    }
    text += folded;
    index += char.length;
  }
  return { text, start, end };
}

/** The words of a query as they are matched: folded, letters and digits only, no repeats. */
export function searchTerms(query: string): string[] {
  const words = foldWithMap(query).text.match(WORDS) ?? [];
  return [...new Set(words)];
}

/** One run of a text: matched (to be marked) or not. */
export interface TextPart {
  text: string;
  match: boolean;
}

function mergeRanges(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/**
 * `text` cut into runs, the ones that `terms` (from `searchTerms`) match marked. Every term is
 * matched as the beginning of a word; the runs put together are exactly `text`.
 */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  if (text === '' || terms.length === 0) return text === '' ? [] : [{ text, match: false }];
  const folded = foldWithMap(text);
  const found: [number, number][] = [];
  for (const term of terms) {
    if (term === '') continue;
    let at = folded.text.indexOf(term);
    while (at !== -1) {
      const before = at === 0 ? '' : folded.text.charAt(at - 1);
      if (at === 0 || !WORD_CHAR.test(before)) {
        const from = folded.start[at]!;
        let to = folded.end[at + term.length - 1]!;
        // Combining marks written after a matched letter ("e" + "́") belong to it.
        while (to < text.length && IS_COMBINING_MARK.test(text.charAt(to))) to++;
        found.push([from, to]);
      }
      at = folded.text.indexOf(term, at + 1);
    }
  }
  if (found.length === 0) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let cursor = 0;
  for (const [from, to] of mergeRanges(found)) {
    if (from > cursor) parts.push({ text: text.slice(cursor, from), match: false });
    parts.push({ text: text.slice(from, to), match: true });
    cursor = to;
  }
  if (cursor < text.length) parts.push({ text: text.slice(cursor), match: false });
  return parts;
}
