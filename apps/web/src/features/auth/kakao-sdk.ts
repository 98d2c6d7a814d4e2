/** The part of the Kakao JavaScript SDK (v2) the login uses. */
export type KakaoSdk = {
  init(appKey: string): void;
  isInitialized(): boolean;
  Auth: { authorize(settings: { redirectUri: string; state?: string }): void };
};

declare global {
  interface Window {
    Kakao?: KakaoSdk;
  }
}

/** The official SDK, loaded from Kakao's own host as Kakao's guide asks (never bundled or mirrored). */
export const KAKAO_SDK_URL = 'https://t1.kakaocdn.net/kakao_js_sdk/2.7.4/kakao.min.js';

let loading: Promise<KakaoSdk> | null = null;

/** Loads the SDK once and initialises it with the app key; rejects when it cannot be loaded. */
export function loadKakaoSdk(appKey: string): Promise<KakaoSdk> {
  loading ??= new Promise<KakaoSdk>((resolve, reject) => {
    if (window.Kakao) {
      resolve(window.Kakao);
      return;
    }
    const script = document.createElement('script');
    script.src = KAKAO_SDK_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.addEventListener('load', () =>
      window.Kakao ? resolve(window.Kakao) : reject(new Error('Kakao SDK loaded without window.Kakao')),
    );
    script.addEventListener('error', () => reject(new Error('Kakao SDK could not be loaded')));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading.then((sdk) => {
    if (!sdk.isInitialized()) sdk.init(appKey);
    return sdk;
  });
}
