import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeKakaoOptions = {
  restApiKey: string;
  clientSecret: string | null;
  /** The redirect URI Kakao registered for the app; the token request must repeat it exactly. */
  redirectUri: string;
};

/** Every request the fake received, for assertions on what the server sent. */
export type FakeKakaoRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
};

export type FakeKakao = {
  authUrl: string;
  apiUrl: string;
  requests: FakeKakaoRequest[];
  /** A fresh single-use authorization code that logs in Kakao user `kakaoId`. */
  issueCode(kakaoId: number): string;
  /** Delay every answer by this many milliseconds (for timeout tests). */
  delayMs: number;
  close(): Promise<void>;
};

/**
 * A small stand-in for Kakao's OAuth servers on 127.0.0.1 (Kakao itself cannot be reached from tests). It checks
 * the token request's form fields the way Kakao does, issues access tokens for codes the test handed out, and
 * answers `/v2/user/me` with the numeric id. Both base URLs are the same server.
 */
export async function startFakeKakao(options: FakeKakaoOptions): Promise<FakeKakao> {
  const codes = new Map<string, number>();
  const accessTokens = new Map<string, number>();
  const requests: FakeKakaoRequest[] = [];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      requests.push({ method: request.method ?? '', path, headers: request.headers, body });
      const answer = (status: number, json: unknown) => {
        setTimeout(() => {
          response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
          response.end(JSON.stringify(json));
        }, fake.delayMs);
      };
      if (request.method === 'POST' && path === '/oauth/token') return token(request, body, answer);
      if (request.method === 'GET' && path === '/v2/user/me') return me(request, answer);
      answer(404, { msg: 'not found', code: -404 });
    });
  });

  function token(request: http.IncomingMessage, body: string, answer: (s: number, j: unknown) => void) {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return answer(400, { error: 'invalid_request', error_code: 'KOE000' });
    }
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'authorization_code') {
      return answer(400, { error: 'unsupported_grant_type', error_code: 'KOE000' });
    }
    if (form.get('client_id') !== options.restApiKey) {
      return answer(401, { error: 'invalid_client', error_code: 'KOE101' });
    }
    if (options.clientSecret !== null && form.get('client_secret') !== options.clientSecret) {
      return answer(401, { error: 'invalid_client', error_code: 'KOE010' });
    }
    if (form.get('redirect_uri') !== options.redirectUri) {
      return answer(400, { error: 'invalid_grant', error_code: 'KOE303' });
    }
    const code = form.get('code') ?? '';
    const kakaoId = codes.get(code);
    if (kakaoId === undefined) return answer(400, { error: 'invalid_grant', error_code: 'KOE320' });
    codes.delete(code);
    const accessToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, kakaoId);
    answer(200, { access_token: accessToken, token_type: 'bearer', refresh_token: 'r', expires_in: 21599 });
  }

  function me(request: http.IncomingMessage, answer: (s: number, j: unknown) => void) {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    const kakaoId = match?.[1] === undefined ? undefined : accessTokens.get(match[1]);
    if (kakaoId === undefined) return answer(401, { msg: 'this access token does not exist', code: -401 });
    answer(200, { id: kakaoId, connected_at: new Date().toISOString() });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const fake: FakeKakao = {
    authUrl: base,
    apiUrl: base,
    requests,
    delayMs: 0,
    issueCode(kakaoId) {
      const code = randomBytes(12).toString('base64url');
      codes.set(code, kakaoId);
      return code;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
