import { vi } from 'vitest';

export type MockRoute = {
  method?: string;
  /** Matched against the request's path (and query string); a string must match exactly. */
  url: string | RegExp;
  /**
   * Answer; sees the request and the body as the app passed it (jsdom's FormData cannot travel inside a
   * Node Request, so multipart bodies are read from `body`).
   */
  respond: (request: Request, body: BodyInit | null) => MockAnswer | Promise<MockAnswer>;
};

export type MockAnswer = { status?: number; body?: unknown };

/** An envelope as the server sends it, for mocked answers. */
export function envelope<T>(data: T, status = 200) {
  return { status, message_kor: '성공', message_eng: 'success', data, timestamp: Date.now() };
}

/** A page of `GET /api/classes` as the server sends it: the envelope with the list's `total` beside `data`. */
export function listEnvelope<T>(items: T[], total: number) {
  return { ...envelope(items), total };
}

/** An error envelope as the server sends it. */
export function errorEnvelope(
  status: number,
  error: string,
  messageKor = '오류',
  invalidFields?: Record<string, string>,
) {
  return {
    status,
    message_kor: messageKor,
    message_eng: 'error',
    error,
    data: 'error',
    timestamp: Date.now(),
    ...(invalidFields ? { invalid_fields: invalidFields } : {}),
  };
}

/**
 * Replaces `fetch` with a table of answers (the HTTP boundary of component tests) and records every call.
 * An unmatched request fails the test loudly with a 599.
 */
export function mockFetch(table: MockRoute[]) {
  const calls: Request[] = [];
  const spy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ?? null;
    const request = new Request(
      new URL(String(input instanceof Request ? input.url : input), 'http://localhost'),
      {
        ...init,
        body: body instanceof FormData ? null : body,
      },
    );
    calls.push(request.clone());
    const url = new URL(request.url);
    const target = `${url.pathname}${url.search}`;
    const route = table.find(
      (entry) =>
        (entry.method ?? 'GET') === request.method &&
        (typeof entry.url === 'string'
          ? entry.url === target || entry.url === url.pathname
          : entry.url.test(target)),
    );
    if (!route) {
      return new Response(JSON.stringify({ error: `unmatched ${request.method} ${target}` }), {
        status: 599,
        headers: { 'content-type': 'application/json' },
      });
    }
    const answer = await route.respond(request, body);
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', spy);
  return { calls, spy };
}
