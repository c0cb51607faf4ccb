/** At most this many distinct words of a query are searched for (the rest are left out). */
export const MAX_TERMS = 32;
/** A word is cut to this many characters (PostgreSQL refuses lexemes over 2 KB). */
const MAX_TERM_LENGTH = 64;

/**
 * The words of a search as the indexes see them: accents and case folded, split at anything that
 * is not a letter or a digit (so quotes, `*`, `-`, `:`, `(`, SQL and FTS operators are never
 * syntax, only separators), each word once, in order.
 */
export function searchTerms(query: string): string[] {
  const folded = query
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const words = folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const terms: string[] = [];
  for (const word of words) {
    const term = Array.from(word).slice(0, MAX_TERM_LENGTH).join('');
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** An FTS5 MATCH expression: each term a quoted string (never syntax) and a prefix, ANDed. */
export function fts5Match(terms: string[]): string {
  return terms.map((t) => `"${t}"*`).join(' AND ');
}
