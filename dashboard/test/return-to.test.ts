import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '../src/session';

// After sign-in the dashboard follows return_to only to its own /oauth/ and /dashboard/ paths: never an open redirect.
const ORIGIN = 'http://localhost:8787';

describe('return_to after sign-in', () => {
  it.each([
    ['/oauth/authorize?client_id=abc&state=x', '/oauth/authorize?client_id=abc&state=x'],
    ['/dashboard/#/usage', '/dashboard/#/usage'],
    ['/dashboard/?x=1#/developers/credentials', '/dashboard/?x=1#/developers/credentials'],
  ])('follows %s', (value, expected) => {
    expect(safeReturnTo(value, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    '',
    'https://evil.example/oauth/',
    '//evil.example/oauth/',
    '/\\evil.example/oauth/',
    '/api/v1/keys/list',
    '/oauthx/',
    'javascript:alert(1)',
    '/dashboard',
  ])('ignores %s', (value) => {
    expect(safeReturnTo(value, ORIGIN)).toBeNull();
  });
});
