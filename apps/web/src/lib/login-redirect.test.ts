import { describe, expect, it } from 'vitest';
import { readLoginRedirectState, returnPath } from './login-redirect';

/** Where /login sends a signed-in user for this history state. */
const target = (from: unknown) => returnPath(readLoginRedirectState({ from }));

describe('login return-to', () => {
  it.each([
    [
      { pathname: '/projects/7', search: '?tab=photos', hash: '#top' },
      '/projects/7?tab=photos#top',
    ],
    [{ pathname: '/people' }, '/people'],
    [{ pathname: '/login' }, '/'],
    [undefined, '/'],
  ])('returns to the same-origin path %j', (from, expected) => {
    expect(target(from)).toBe(expected);
  });

  // History state survives reloads and can be set by any script on the page: none of these may
  // leave the origin (nor crash the router, which throws on `//host` paths).
  it.each([
    { pathname: '//evil.example/x' },
    { pathname: '/\\evil.example/x' },
    { pathname: '/\\/evil.example' },
    { pathname: '/\t/evil.example' },
    { pathname: '/\n/evil.example' },
    { pathname: 'https://evil.example/' },
    { pathname: 'javascript:alert(1)' },
    { pathname: '/', search: '/evil.example' },
    { pathname: '/', search: '', hash: '/evil.example' },
    { pathname: '/', search: '?\r\n' },
    { pathname: 42 },
  ])('falls back to Home for %j', (from) => {
    expect(target(from)).toBe('/');
  });
});
