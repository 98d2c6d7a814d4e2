import type { ErrorEnvelope } from '@sea/contract/envelope';
import type { TokenPair } from '@sea/contract/auth';
import { ROUTES } from '@sea/contract/paths';
import { env } from '../config/env.ts';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from './auth-tokens.ts';
import { HttpError } from './http-error.ts';
import { takeInitialAnswer } from './initial-answers.ts';
import { sendRaw } from './transport.ts';
import type { RawResponse } from './transport.ts';

/** The part of a zod schema the client uses; a type only, so this file does not load zod. */
export type AnswerSchema<T> = {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } };
};

export type QueryValue = string | number | boolean | null | undefined;

export type HttpOptions<T> = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (JSON parts as Blobs of type application/json, files as File). */
  form?: FormData;
  /**
   * The route answers a bare body (the original API spec, 1.1, lists them); otherwise the envelope's `data` is
   * returned.
   */
  bare?: boolean;
  /**
   * Checks and types the answer (a zod schema of the contract). Optional, because zod is kept out of the
   * first page's JavaScript: list answers of the home page are typed, not checked.
   */
  schema?: AnswerSchema<T>;
  /**
   * Use this access token instead of the stored one (sign-up uses the tokens from the login callback);
   * a 401 then is final, no refresh.
   */
  token?: string;
  /** Send no token at all. */
  anonymous?: boolean;
  /** Upload progress 0..1; switches the transport to XMLHttpRequest, the only one that reports it. */
  onUploadProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Let the request outlive the page (a last report sent while the page closes); small bodies only. */
  keepalive?: boolean;
};

/**
 * The one HTTP client of the app. Adds the bearer token, unwraps envelopes, throws {@link HttpError} with the
 * server's Korean message and invalid fields, and on a 401 refreshes the tokens once (single-flight across
 * concurrent requests) and retries. When the refresh fails the tokens are removed (logged out) and the 401
 * is thrown for the caller's own handling.
 */
export async function http<T = unknown>(path: string, options: HttpOptions<T> = {}): Promise<T> {
  // A catalogue page's HTML carries the answers of its first (public) requests: no round trip for those.
  if ((options.method ?? 'GET') === 'GET' && options.token === undefined) {
    const initial = takeInitialAnswer(path, options.query);
    if (initial !== undefined) return readBody(200, initial.body, options);
  }
  const stored = options.token === undefined && !options.anonymous;
  const sentToken = options.anonymous ? null : (options.token ?? getAccessToken());
  let response = await exchange(path, options, sentToken);

  if (response.status === 401 && stored && sentToken !== null) {
    const fresh = await freshAccessToken(sentToken);
    if (fresh !== null) response = await exchange(path, options, fresh);
  }
  return readAnswer(response, options);
}

/** Builds the URL of an API path with a query string (undefined and null values are left out). */
export function apiUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  return `${env.apiOrigin}${path}${search ? `?${search}` : ''}`;
}

async function exchange<T>(
  path: string,
  options: HttpOptions<T>,
  token: string | null,
): Promise<RawResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | null = null;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  try {
    return await sendRaw({
      method: options.method ?? 'GET',
      url: apiUrl(path, options.query),
      headers,
      body,
      signal: options.signal,
      onUploadProgress: options.onUploadProgress,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new HttpError({ status: 0, code: 'Network Error', message: String(error) });
  }
}

function parseBody(response: RawResponse): unknown {
  if (response.text === '') return null;
  if (!response.contentType.includes('json')) return response.text;
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    return response.text;
  }
}

function readAnswer<T>(response: RawResponse, options: HttpOptions<T>): T {
  return readBody(response.status, parseBody(response), options);
}

function readBody<T>(status: number, body: unknown, options: HttpOptions<T>): T {
  if (status < 200 || status >= 300) {
    const fields = readErrorEnvelope(body);
    throw new HttpError({
      status,
      code: fields.error ?? null,
      messageKor: fields.message_kor ?? null,
      invalidFields: fields.invalid_fields ?? {},
    });
  }
  const payload = options.bare ? body : unwrap(body);
  if (!options.schema) return payload as T;
  const checked = options.schema.safeParse(payload);
  if (!checked.success) {
    throw new HttpError({
      status,
      code: 'Invalid Response',
      message: checked.error.message,
    });
  }
  return checked.data;
}

/** The useful fields of an error envelope, each only when it has the right type. */
function readErrorEnvelope(
  body: unknown,
): Partial<Pick<ErrorEnvelope, 'error' | 'message_kor' | 'invalid_fields'>> {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const fields: Partial<Pick<ErrorEnvelope, 'error' | 'message_kor' | 'invalid_fields'>> = {};
  if (typeof record.error === 'string') fields.error = record.error;
  if (typeof record.message_kor === 'string') fields.message_kor = record.message_kor;
  const invalid = record.invalid_fields;
  if (typeof invalid === 'object' && invalid !== null) {
    fields.invalid_fields = Object.fromEntries(
      Object.entries(invalid).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }
  return fields;
}

function isTokenPair(body: unknown): body is TokenPair {
  if (typeof body !== 'object' || body === null) return false;
  const record = body as Record<string, unknown>;
  return typeof record.accessToken === 'string' && typeof record.refreshToken === 'string';
}

function unwrap(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'data' in body) return body.data;
  return body;
}

let refreshing: Promise<string | null> | null = null;

/**
 * An access token newer than `rejected`, or null when the session is over. Concurrent callers share one
 * refresh: the server rotates refresh tokens and treats reuse of an old one as theft.
 */
async function freshAccessToken(rejected: string): Promise<string | null> {
  const current = getAccessToken();
  // Someone else refreshed while this request was in flight: use their token.
  if (current !== null && current !== rejected) return current;
  refreshing ??= refreshTokens().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function refreshTokens(): Promise<string | null> {
  const refreshToken = getRefreshToken();
  if (refreshToken === null) {
    clearTokens();
    return null;
  }
  let response: RawResponse;
  try {
    response = await sendRaw({
      method: 'POST',
      url: apiUrl(ROUTES.refresh),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
  } catch {
    // The server is unreachable: keep the tokens, they may still be good once it is back.
    return null;
  }
  const tokens = response.status === 200 ? parseBody(response) : null;
  if (!isTokenPair(tokens)) {
    clearTokens();
    return null;
  }
  setTokens(tokens);
  return tokens.accessToken;
}

/** A multipart body with one JSON part (sent as application/json) and an optional image file. */
export function multipart(
  jsonPart: string,
  json: unknown,
  file?: { part: string; file: File | null },
): FormData {
  const form = new FormData();
  form.append(jsonPart, new Blob([JSON.stringify(json)], { type: 'application/json' }));
  if (file?.file) form.append(file.part, file.file);
  return form;
}
