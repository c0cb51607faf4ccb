import { findMentions, type CommentPerson } from '@sitelog/shared';

/** A piece of a comment's text as the thread draws it. */
export type CommentPart =
  | { kind: 'text'; text: string }
  /**
   * An http(s) address, linked; `text` is what was typed, `href` the parsed URL and `host` where
   * it really goes (a look-alike name in its punycode form), for the link's title.
   */
  | { kind: 'link'; text: string; href: string; host: string }
  /** A member the comment names, linked to their profile. */
  | { kind: 'mention'; text: string; person: CommentPerson };

/**
 * Addresses as people type them in text: `http://` or `https://` and everything up to white space
 * or a character that never ends an address in prose. Nothing else is ever a link (no
 * `javascript:`, `data:`, `www.` without a scheme, or HTML).
 */
const URL_CANDIDATE = /\bhttps?:\/\/[^\s<>"'`]+/giu;
/** Punctuation that ends the sentence rather than the address ("see https://x.io/a."). */
const TRAILING = /[.,;:!?…)\]}]+$/u;

/** Drops trailing punctuation, but keeps a closing bracket the address opened (Wikipedia links). */
function trimAddress(candidate: string): string {
  let text = candidate;
  for (;;) {
    const trailing = TRAILING.exec(text);
    if (!trailing) return text;
    const last = text.charAt(text.length - 1);
    const open = { ')': '(', ']': '[', '}': '{' }[last];
    if (open !== undefined) {
      const opens = text.split(open).length - 1;
      const closes = text.split(last).length - 1;
      if (opens >= closes) return text;
    }
    text = text.slice(0, -1);
  }
}

/**
 * Characters that change how an address looks without showing: direction controls (which can
 * draw "moc.elpmaxe" as "example.com"), zero-width spaces and joiners, the soft hyphen, the byte
 * order mark.
 */
const HIDDEN_CONTROLS =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

/**
 * `text` as an http(s) URL and the host it opens, or null (the browser's parser, so what is
 * linked is what opens). Not linked, so shown only as text: an address with a user name
 * ("https://example.com@evil.test" opens evil.test), or with hidden characters.
 */
function safeLink(text: string): { href: string; host: string } | null {
  if (HIDDEN_CONTROLS.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.hostname === '') return null;
    if (url.username !== '' || url.password !== '') return null;
    return { href: url.href, host: url.host };
  } catch {
    return null;
  }
}

/** The mentions of `text` (against the comment's own `mentions`) as parts, the rest as text. */
function mentionParts(text: string, mentions: readonly CommentPerson[]): CommentPart[] {
  const parts: CommentPart[] = [];
  let at = 0;
  for (const span of findMentions(text, mentions)) {
    if (span.start > at) parts.push({ kind: 'text', text: text.slice(at, span.start) });
    parts.push({ kind: 'mention', text: text.slice(span.start, span.end), person: span.person });
    at = span.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}

/**
 * A comment's text cut into plain text, links and mentions, in order; joined they are the text
 * exactly (line breaks included: the thread keeps them with `white-space: pre-wrap`). Addresses
 * are found first; mentions in the text between them, by the server's own rule (`findMentions`)
 * against the members the server says the comment names.
 */
export function commentParts(body: string, mentions: readonly CommentPerson[]): CommentPart[] {
  const parts: CommentPart[] = [];
  let at = 0;
  for (const match of body.matchAll(URL_CANDIDATE)) {
    const start = match.index;
    if (start < at) continue;
    const text = trimAddress(match[0]);
    const link = safeLink(text);
    if (link === null) continue;
    if (start > at) parts.push(...mentionParts(body.slice(at, start), mentions));
    parts.push({ kind: 'link', text, ...link });
    at = start + text.length;
  }
  if (at < body.length) parts.push(...mentionParts(body.slice(at), mentions));
  return parts;
}
