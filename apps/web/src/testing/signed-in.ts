import { afterEach, beforeEach, vi } from 'vitest';
import { setTokens } from '../lib/auth-tokens.ts';

/** Signs the test user in before each test of the file, and drops the stubbed globals (fetch) after it. */
export function signedInPerTest(): void {
  beforeEach(() => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
}
