import { OAUTH_REDIRECT_PATH } from '@sea/contract/auth';
import { unauthorized, type HttpError } from '../errors.ts';

/** What the Kakao exchange needs: the REST API key, the optional client secret and both base URLs. */
export type KakaoOptions = {
  restApiKey: string;
  clientSecret: string | null;
  authUrl: string;
  apiUrl: string;
  /** The web app's origin; the redirect URI sent to Kakao is `{publicUrl}/oauth/kakao/callback`. */
  publicUrl: string;
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Exchanges an authorization code at Kakao's token endpoint, then reads the user's numeric id from
 * `/v2/user/me`. Answers the id as a decimal string. Anything Kakao refuses, or a Kakao that cannot be reached
 * in time, is a 401: the login did not happen and the person must start it again.
 */
export async function kakaoUserId(options: KakaoOptions, code: string): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    client_id: options.restApiKey,
    redirect_uri: `${options.publicUrl}${OAUTH_REDIRECT_PATH}`,
    code,
  });
  if (options.clientSecret !== null) form.set('client_secret', options.clientSecret);

  const token = await kakaoJson(`${options.authUrl}/oauth/token`, timeoutMs, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
    body: form,
  });
  const accessToken = token.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') throw kakaoRejected();

  const me = await kakaoJson(`${options.apiUrl}/v2/user/me`, timeoutMs, {
    method: 'GET',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  // Kakao ids are 64-bit integers; a JSON number above 2^53 would lose digits, so only safe integers pass.
  const id = me.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw kakaoRejected();
  return String(id);
}

async function kakaoJson(
  url: string,
  timeoutMs: number,
  init: RequestInit,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    // Unreachable or too slow: the login cannot complete, which the person sees like a refusal.
    throw unauthorized(
      '카카오 로그인 서버에 연결할 수 없어요. 잠시 후 다시 시도해 주세요.',
      'Kakao could not be reached.',
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || typeof body !== 'object' || body === null || Array.isArray(body)) throw kakaoRejected();
  return body as Record<string, unknown>;
}

function kakaoRejected(): HttpError {
  return unauthorized('카카오 로그인에 실패했어요. 다시 로그인해 주세요.', 'Kakao rejected the login.');
}
