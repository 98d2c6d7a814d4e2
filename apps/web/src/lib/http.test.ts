import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, errorEnvelope, mockFetch } from '../testing/fetch-mock.ts';
import { getAccessToken, getRefreshToken, setTokens } from './auth-tokens.ts';
import { http, multipart } from './http.ts';
import { HttpError } from './http-error.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function bearer(request: Request): string | null {
  return request.headers.get('authorization');
}

describe('http', () => {
  it('unwraps the envelope and sends the stored bearer token', async () => {
    setTokens({ accessToken: 'a1', refreshToken: 'r1' });
    const { calls } = mockFetch([
      { url: '/api/users', respond: () => ({ body: envelope({ nickname: '고래' }) }) },
    ]);
    await expect(http('/api/users')).resolves.toEqual({ nickname: '고래' });
    expect(bearer(calls[0] as Request)).toBe('Bearer a1');
  });

  it('returns bare bodies as they are and builds the query string without empty values', async () => {
    const { calls } = mockFetch([
      { url: /^\/api\/categories/, respond: () => ({ body: [{ id: 1, name: '음악' }] }) },
    ]);
    await expect(
      http('/api/categories', { bare: true, query: { page: 0, category: undefined } }),
    ).resolves.toEqual([{ id: 1, name: '음악' }]);
    expect(new URL((calls[0] as Request).url).search).toBe('?page=0');
  });

  it('throws an HttpError with status, Korean message and invalid fields', async () => {
    mockFetch([
      {
        method: 'POST',
        url: '/api/classes',
        respond: () => ({
          status: 400,
          body: errorEnvelope(400, 'Bad Request', '입력값을 확인해 주세요.', {
            name: '강의 제목을 입력해 주세요.',
          }),
        }),
      },
    ]);
    const error = await http('/api/classes', { method: 'POST', json: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 400,
      code: 'Bad Request',
      messageKor: '입력값을 확인해 주세요.',
      invalidFields: { name: '강의 제목을 입력해 주세요.' },
    });
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(http('/api/users')).rejects.toMatchObject({ status: 0 });
  });

  it('on a 401 refreshes once and retries with the new access token', async () => {
    setTokens({ accessToken: 'old', refreshToken: 'r-old' });
    const { calls } = mockFetch([
      {
        url: '/api/users',
        respond: (request) =>
          bearer(request) === 'Bearer new'
            ? { body: envelope({ nickname: '해마' }) }
            : { status: 401, body: errorEnvelope(401, 'Unauthorized') },
      },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: async (request) => {
          expect(await request.json()).toEqual({ refreshToken: 'r-old' });
          return { body: { accessToken: 'new', refreshToken: 'r-new' } };
        },
      },
    ]);
    await expect(http('/api/users')).resolves.toEqual({ nickname: '해마' });
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual([
      '/api/users',
      '/api/auth/refresh',
      '/api/users',
    ]);
    expect(getAccessToken()).toBe('new');
    expect(getRefreshToken()).toBe('r-new');
  });

  it('shares one refresh between concurrent 401s (rotated refresh tokens must not be reused)', async () => {
    setTokens({ accessToken: 'old', refreshToken: 'r-old' });
    let refreshes = 0;
    mockFetch([
      {
        url: /^\/api\/classes\/\d+$/,
        respond: (request) =>
          bearer(request) === 'Bearer new'
            ? { body: envelope({ ok: true }) }
            : { status: 401, body: errorEnvelope(401, 'Unauthorized') },
      },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: async () => {
          refreshes += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { body: { accessToken: 'new', refreshToken: 'r-new' } };
        },
      },
    ]);
    const answers = await Promise.all([1, 2, 3].map((id) => http(`/api/classes/${id}`)));
    expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(refreshes).toBe(1);
  });

  it('when the refresh fails, removes the tokens and throws the 401', async () => {
    setTokens({ accessToken: 'old', refreshToken: 'r-bad' });
    const { calls } = mockFetch([
      { url: '/api/users', respond: () => ({ status: 401, body: errorEnvelope(401, 'Unauthorized') }) },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: () => ({ status: 401, body: errorEnvelope(401, 'Unauthorized') }),
      },
    ]);
    await expect(http('/api/users')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });

  it('does not refresh when the caller passed its own token (sign-up with the callback tokens)', async () => {
    setTokens({ accessToken: 'stored', refreshToken: 'r' });
    const { calls } = mockFetch([
      { url: '/api/auth/signup', respond: () => ({ status: 401, body: errorEnvelope(401, 'Unauthorized') }) },
    ]);
    await expect(http('/api/auth/signup', { token: 'given' })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(bearer(calls[0] as Request)).toBe('Bearer given');
    expect(getAccessToken()).toBe('stored');
  });

  it('rejects an answer that fails the schema', async () => {
    mockFetch([{ url: '/api/users', respond: () => ({ body: envelope({ nickname: 3 }) }) }]);
    const schema = {
      safeParse: (value: unknown) =>
        typeof (value as { nickname?: unknown }).nickname === 'string'
          ? { success: true as const, data: value as { nickname: string } }
          : { success: false as const, error: { message: 'nickname must be a string' } },
    };
    await expect(http('/api/users', { schema })).rejects.toMatchObject({ code: 'Invalid Response' });
  });

  it('builds multipart bodies with a JSON part and an optional file', async () => {
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const form = multipart('signupRequestDto', { nickname: '게', email: null }, { part: 'imagefile', file });
    const json = form.get('signupRequestDto');
    expect(json).toBeInstanceOf(Blob);
    expect((json as Blob).type).toBe('application/json');
    expect(JSON.parse(await (json as Blob).text())).toEqual({ nickname: '게', email: null });
    expect(form.get('imagefile')).toBeInstanceOf(File);
    expect(multipart('x', {}, { part: 'imagefile', file: null }).has('imagefile')).toBe(false);
  });
});
