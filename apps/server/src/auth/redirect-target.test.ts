import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAllowedRedirect, redirectWithCode } from './redirect-target.ts';

const PUBLIC_URL = 'https://sea.example.com';

describe('isAllowedRedirect', () => {
  it.each([
    ['https://sea.example.com/oauth/kakao/callback', true],
    ['https://sea.example.com:443/oauth/kakao/callback?x=1', true],
    ['http://localhost:5173/oauth/kakao/callback', true],
    ['http://127.0.0.1:4000/cb', true],
    ['http://[::1]:5000/cb', true],
    ['http://sea.example.com/oauth/kakao/callback', false], // another scheme is another origin
    ['https://sea.example.com:8443/cb', false],
    ['https://evil.example/cb', false],
    ['https://sea.example.com.evil.example/cb', false],
    ['https://evil.example/?https://sea.example.com', false],
    ['https://user:pass@sea.example.com/cb', false],
    ['http://localhost@evil.example/cb', false],
    ['http://127.0.0.2/cb', false],
    ['ftp://localhost/cb', false],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['/relative', false],
    ['//evil.example/cb', false],
    ['', false],
  ])('%s → %s', (uri, allowed) => {
    expect(isAllowedRedirect(uri, PUBLIC_URL)).toBe(allowed);
  });

  it("never allows a host other than PUBLIC_URL's or loopback", () => {
    fc.assert(
      fc.property(fc.webUrl(), (uri) => {
        if (!isAllowedRedirect(uri, PUBLIC_URL)) return;
        const host = new URL(uri).hostname;
        expect(['sea.example.com', 'localhost', '127.0.0.1', '[::1]']).toContain(host);
      }),
    );
  });
});

describe('redirectWithCode', () => {
  it('adds code and state, keeping the existing query', () => {
    const url = new URL(redirectWithCode('http://localhost:5173/cb?from=a', 'c&d', 's=1'));
    expect(Object.fromEntries(url.searchParams)).toEqual({ from: 'a', code: 'c&d', state: 's=1' });
  });
});
