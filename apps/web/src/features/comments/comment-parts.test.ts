import type { CommentPerson } from '@sitelog/shared';
import { describe, expect, it } from 'vitest';
import { commentParts, type CommentPart } from './comment-parts';

const zoe: CommentPerson = { id: 5, firstname: 'Zoë', lastname: 'Müller', active: true };
const ann: CommentPerson = { id: 6, firstname: 'Ann', lastname: 'Lee', active: false };

/** The parts in a compact form: text as is, links as [href], mentions as {id}. */
const compact = (parts: CommentPart[]) =>
  parts.map((p) =>
    p.kind === 'text' ? p.text : p.kind === 'link' ? [p.text, p.href] : { [p.person.id]: p.text },
  );

describe('commentParts', () => {
  it('keeps plain text whole, line breaks and HTML included', () => {
    const text = 'Line one\n<b>two</b> <img src=x onerror=alert(1)>\n\n  three';
    expect(compact(commentParts(text, []))).toEqual([text]);
  });

  it('links http and https addresses and nothing else', () => {
    const text =
      'see https://example.com/a?b=1&c=2#d and http://x.io, not javascript:alert(1) ' +
      'nor JAVASCRIPT://%0aalert(1) nor data:text/html,<b> nor www.example.com or ftp://host';
    const parts = commentParts(text, []);
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.text)).toEqual([
      'https://example.com/a?b=1&c=2#d',
      'http://x.io',
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });

  it('never makes a link of a javascript: address hidden after http', () => {
    const parts = commentParts('http://javascript:alert(1) https://', []);
    for (const part of parts)
      if (part.kind === 'link') expect(new URL(part.href).protocol).toMatch(/^https?:$/);
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.href)).not.toContain('https://');
  });

  it('leaves the sentence’s punctuation out of an address, but keeps its own brackets', () => {
    expect(compact(commentParts('Read https://example.com/spec.', []))).toEqual([
      'Read ',
      ['https://example.com/spec', 'https://example.com/spec'],
      '.',
    ]);
    expect(compact(commentParts('(see https://en.wikipedia.org/wiki/Rebar_(steel))', []))).toEqual([
      '(see ',
      [
        'https://en.wikipedia.org/wiki/Rebar_(steel)',
        'https://en.wikipedia.org/wiki/Rebar_(steel)',
      ],
      ')',
    ]);
  });

  it('marks the members the comment names, as the server found them, accents as typed', () => {
    expect(compact(commentParts('@zoe muller, ask @Ann Lee!\n@Bob Nobody', [zoe, ann]))).toEqual([
      { 5: '@zoe muller' },
      ', ask ',
      { 6: '@Ann Lee' },
      '!\n@Bob Nobody',
    ]);
    // Not a mention inside an email address.
    expect(compact(commentParts('mail zoe@Zoë Müller.com', [zoe]))).toEqual([
      'mail zoe@Zoë Müller.com',
    ]);
  });

  it('finds mentions and links side by side', () => {
    expect(compact(commentParts('@Zoë Müller: https://a.io/x @Zoë Müller', [zoe]))).toEqual([
      { 5: '@Zoë Müller' },
      ': ',
      ['https://a.io/x', 'https://a.io/x'],
      ' ',
      { 5: '@Zoë Müller' },
    ]);
  });
});
