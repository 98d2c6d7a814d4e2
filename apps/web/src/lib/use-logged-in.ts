import { useSyncExternalStore } from 'react';
import { getAccessToken, subscribeTokens } from './auth-tokens.ts';

/** True while an access token is stored: the spec's definition of being logged in. */
export function useLoggedIn(): boolean {
  return useSyncExternalStore(
    subscribeTokens,
    () => getAccessToken() !== null,
    () => false,
  );
}
