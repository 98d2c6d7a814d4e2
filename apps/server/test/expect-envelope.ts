import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ERROR_CODES, ErrorEnvelopeSchema, type ErrorStatus } from '@sea/contract/envelope';

const HANGUL = /[\uac00-\ud7a3]/;

/** Asserts an error envelope with this status, its stable code and a Korean message; returns the body. */
export function expectError(response: LightMyRequestResponse, status: ErrorStatus) {
  expect(response.statusCode, response.body).toBe(status);
  const body = ErrorEnvelopeSchema.parse(response.json());
  expect(body.status).toBe(status);
  expect(body.error).toBe(ERROR_CODES[status]);
  expect(body.message_kor).toMatch(HANGUL);
  return body;
}

/** Asserts a success envelope (HTTP 200) and returns its `data`. */
export function expectOk<T = unknown>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { status: number; message_kor: string; data: T; timestamp: number };
  expect(body.status).toBe(200);
  expect(body.message_kor).toMatch(HANGUL);
  expect(typeof body.timestamp).toBe('number');
  return body.data;
}
