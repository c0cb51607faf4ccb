/** At most this many distinct words of a query are searched for (the rest are left out). */
export const MAX_TERMS = 32;
/** A word is cut to this many characters (PostgreSQL refuses lexemes over 2 KB). */
const MAX_TERM_LENGTH = 64;

/**
 * The words of a search: split at anything that is not a letter, a digit or a combining mark (so
 * quotes, `*`, `-`, `:`, `(`, SQL and FTS operators are never syntax, only separators), lower
 * case, in NFC, each word once, in order. Accents are left to each engine, which folds the query
 * as it folds the documents (FTS5's tokenizer, PostgreSQL's `search_fold`): stripping marks here
 * would break words the engines keep whole (Korean syllables, kana, й).
 */
export function searchTerms(query: string): string[] {
  const words = query
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w.length > 0 && /[\p{L}\p{N}]/u.test(w));
  const terms: string[] = [];
  for (const word of words) {
    const term = Array.from(word).slice(0, MAX_TERM_LENGTH).join('');
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/**
 * An FTS5 MATCH expression: each term a quoted string (never syntax), ANDed; a prefix, except a
 * single character before the last word ("c 4" would walk every word starting with c, and 32
 * one-letter words made a search cost 150 ms).
 */
export function fts5Match(terms: string[]): string {
  return terms
    .map((t, i) => (Array.from(t).length > 1 || i === terms.length - 1 ? `"${t}"*` : `"${t}"`))
    .join(' AND ');
}
