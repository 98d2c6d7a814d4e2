import { useEffect, useState } from 'react';
import { OAUTH_REDIRECT_PATH } from '@sea/contract/auth';
import type { AppKey } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { apiUrl } from '../../lib/http.ts';
import { useAppKey } from './api/get-app-key.ts';
import { redirectTo } from './browser-redirect.ts';
import { loadKakaoSdk } from './kakao-sdk.ts';
import type { KakaoSdk } from './kakao-sdk.ts';
import { createLoginState } from './login-state.ts';

export type LoginStart = {
  /** False until the app key is known and, for Kakao, the SDK is loaded and initialised. */
  ready: boolean;
  provider: AppKey['provider'] | null;
  start: () => void;
};

function redirectUri(): string {
  return `${window.location.origin}${OAUTH_REDIRECT_PATH}`;
}

/**
 * Prepares the login button: fetches the app key, loads the Kakao SDK when the provider is Kakao, and
 * starts the authorisation with a fresh `state`. Failures leave the button disabled and are logged
 * (product-spec section 8).
 */
export function useLoginStart(): LoginStart {
  const appKey = useAppKey();
  const [sdk, setSdk] = useState<KakaoSdk | null>(null);
  const provider = appKey.data?.provider ?? null;
  const key = appKey.data?.appKey ?? null;

  useEffect(() => {
    if (appKey.error) console.error('Could not fetch the login app key', appKey.error);
  }, [appKey.error]);

  useEffect(() => {
    if (provider !== 'kakao' || key === null) return undefined;
    let current = true;
    loadKakaoSdk(key).then(
      (loaded) => {
        if (current) setSdk(loaded);
      },
      (error: unknown) => console.error('Kakao SDK not loaded or initialised', error),
    );
    return () => {
      current = false;
    };
  }, [provider, key]);

  const ready = provider === 'dev' || (provider === 'kakao' && sdk !== null);

  function start() {
    if (!ready) return;
    const state = createLoginState();
    if (provider === 'kakao' && sdk) {
      sdk.Auth.authorize({ redirectUri: redirectUri(), state });
      return;
    }
    redirectTo(apiUrl(ROUTES.devAuthorize, { redirect_uri: redirectUri(), state }));
  }

  return { ready, provider, start };
}
