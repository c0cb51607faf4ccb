import { describe, expect, it } from 'vitest';
import { highlightParts, searchTerms } from './highlight-parts';

/** The parts as a string with the matches in [brackets], for readable expectations. */
const marked = (text: string, query: string) =>
  highlightParts(text, searchTerms(query))
    .map((part) => (part.match ? `[${part.text}]` : part.text))
    .join('');

describe('searchTerms', () => {
  it('folds case and accents and keeps letters and digits only', () => {
    expect(searchTerms('  Béton  C4-REBAR "north"* ')).toEqual(['beton', 'c4', 'rebar', 'north']);
  });

  it('drops repeats and has no words for punctuation alone', () => {
    expect(searchTerms('rebar Rebar RÉBAR')).toEqual(['rebar']);
    expect(searchTerms(' -- "" * ')).toEqual([]);
  });
});

describe('highlightParts', () => {
  it('marks a prefix at the start of a word, whatever its case', () => {
    expect(marked('Rebar cage, north wall', 'reba')).toBe('[Reba]r cage, north wall');
  });

  it('ignores accents both ways and marks the characters as written', () => {
    expect(marked('Béton armé', 'beton')).toBe('[Béton] armé');
    expect(marked('Zurich beton', 'zürich BÉTON')).toBe('[Zurich] [beton]');
  });

  it('keeps a decomposed accent (e + combining acute) inside the mark', () => {
    const decomposed = 'Be\u0301ton';
    expect(marked(decomposed, 'be')).toBe('[Be\u0301]ton');
    expect(marked(decomposed, 'beton')).toBe(`[${decomposed}]`);
  });

  it('matches only at the start of words, not inside them', () => {
    expect(marked('Crossbar and barrier', 'bar')).toBe('Crossbar and [bar]rier');
  });

  it('marks every word of the query, each wherever it starts a word', () => {
    expect(marked('North wall rebar, north side', 'north rebar')).toBe(
      '[North] wall [rebar], [north] side',
    );
  });

  it('merges overlapping matches of two words into one mark', () => {
    expect(marked('Reinforcement', 're rein')).toBe('[Rein]forcement');
  });

  it('maps back over characters that fold to another length (İ, emoji)', () => {
    expect(marked('İstanbul 🏗️ site', 'istan site')).toBe('[İstan]bul 🏗️ [site]');
  });

  it('returns the text unmarked when nothing matches, and nothing for empty text', () => {
    expect(highlightParts('Harbour bridge', searchTerms('crane'))).toEqual([
      { text: 'Harbour bridge', match: false },
    ]);
    expect(highlightParts('Harbour bridge', [])).toEqual([
      { text: 'Harbour bridge', match: false },
    ]);
    expect(highlightParts('', searchTerms('crane'))).toEqual([]);
  });

  it('puts the text back together exactly, hostile markup included', () => {
    const hostile = '<img src=x onerror=alert(1)> & <script>alert("x")</script>';
    const parts = highlightParts(hostile, searchTerms('img alert script'));
    expect(parts.map((part) => part.text).join('')).toBe(hostile);
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual([
      'img',
      'alert',
      'script',
      'alert',
      'script',
    ]);
  });
});
