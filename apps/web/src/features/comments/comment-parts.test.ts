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

  it('does not link an address with a user name or hidden characters, which could mislead', () => {
    const misleading = [
      // Opens evil.test, reads as example.com.
      'https://example.com@evil.test/login',
      'https://user:secret@host.test/',
      // A direction override draws the end reversed; zero-width and soft hyphens hide.
      'https://example.com/\u202Etxt.exe',
      'https://exam\u200Bple.com/',
      'https://exam\u00ADple.com/',
      'https://example.com/\u2066a\u2069',
    ];
    for (const address of misleading) {
      const text = `see ${address} now`;
      expect(compact(commentParts(text, []))).toEqual([text]);
    }
    // An @ in the path is no user name.
    expect(compact(commentParts('https://example.com/people/@ann', []))).toEqual([
      ['https://example.com/people/@ann', 'https://example.com/people/@ann'],
    ]);
  });

  it('names the host each link opens, look-alike names in their punycode form', () => {
    const hosts = (text: string) =>
      commentParts(text, []).flatMap((p) => (p.kind === 'link' ? [p.host] : []));
    expect(hosts('https://Example.com:8080/a and http://x.io')).toEqual([
      'example.com:8080',
      'x.io',
    ]);
    // A Cyrillic "е" in place of the Latin "e".
    expect(hosts('https://\u0435xample.com/pay')).toEqual(['xn--xample-2of.com']);
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
