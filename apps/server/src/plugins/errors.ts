import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, type ErrorEnvelope, type ErrorStatus } from '@sea/contract/envelope';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { StoreUnavailable } from '@sea/service-kit/storage/store-errors';
import {
  badRequest,
  HttpError,
  invalid,
  payloadTooLarge,
  RETRY_AFTER_SECONDS,
  serviceUnavailable,
} from '../errors.ts';

const HANGUL = /[\uac00-\ud7a3]/;
const GENERIC_FIELD_MESSAGE = '올바른 값을 입력해 주세요.';

/** The error envelope of the original API spec 1.1 for an HttpError. */
export function errorEnvelope(error: HttpError): ErrorEnvelope {
  return {
    status: error.status,
    message_kor: error.messageKor,
    message_eng: error.messageEng,
    error: error.code,
    data: 'error',
    timestamp: Date.now(),
    ...(error.invalidFields ? { invalid_fields: error.invalidFields } : {}),
  };
}

type ValidationIssue = { instancePath?: string; message?: string };

/** field name → Korean message; zod's own English messages become a generic Korean one. */
export function invalidFieldsOf(issues: readonly ValidationIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    // A failure of the whole body or query (not one field) is reported under `body`.
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'body';
    const message = issue.message && HANGUL.test(issue.message) ? issue.message : GENERIC_FIELD_MESSAGE;
    fields[field] ??= message;
  }
  return fields;
}

/** Maps anything thrown by a route, a hook or Fastify itself to an HttpError (or null: a 5xx). */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) return invalid(invalidFieldsOf(error.validation));
  // A schema parsed by a module itself (a multipart JSON part): same answer as a request schema.
  if (error instanceof z.ZodError) {
    return invalid(
      invalidFieldsOf(
        error.issues.map((i) => ({ instancePath: `/${i.path.join('/')}`, message: i.message })),
      ),
    );
  }
  // The database refusing or dropping connections is not a bug of the request: 503, as /health answers.
  if (isDatabaseUnavailable(error)) return serviceUnavailable();
  // So is the object store refusing a file (a bucket without write access, a store that is down).
  if (error instanceof StoreUnavailable) return storeUnavailable(error.access);
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('요청 본문이 올바른 JSON이 아니에요.', 'The body is not valid JSON.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return payloadTooLarge();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, '요청 본문이 너무 커요.', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, '지원하지 않는 요청 형식이에요.', 'Unsupported content type.');
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    if (status in ERROR_CODES) {
      return new HttpError(
        status as ErrorStatus,
        '요청을 처리할 수 없어요.',
        fastifyError.message ?? 'Error',
      );
    }
    return badRequest('요청을 처리할 수 없어요.', fastifyError.message ?? 'Bad request.');
  }
  return null;
}

function storeUnavailable(access: 'read' | 'write'): HttpError {
  return access === 'write'
    ? new HttpError(
        503,
        '파일을 저장하지 못했어요. 파일 저장소가 응답하지 않거나 저장을 거부했어요. 잠시 후 다시 시도해 주세요.',
        'The file could not be stored: the object store is unavailable or refused the write.',
      )
    : new HttpError(
        503,
        '파일을 불러오지 못했어요. 파일 저장소가 응답하지 않아요. 잠시 후 다시 시도해 주세요.',
        'The file could not be read: the object store is unavailable.',
      );
}

/** The one error handler: every failure answers an envelope; a 5xx says nothing of its cause. */
export function registerErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const httpError = toHttpError(error);
    if (httpError) {
      if (httpError.status === 401) reply.header('WWW-Authenticate', 'Bearer');
      if (httpError.status === 503) {
        request.log.warn({ err: error }, 'service unavailable');
        reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      }
      return reply.code(httpError.status).send(errorEnvelope(httpError));
    }
    request.log.error({ err: error }, 'request failed');
    const envelope: ErrorEnvelope = {
      status: 500,
      message_kor: '서버에 문제가 생겼어요. 잠시 후 다시 시도해 주세요.',
      message_eng: 'Internal server error.',
      error: ERROR_CODES[500],
      data: 'error',
      timestamp: Date.now(),
    };
    return reply.code(500).send(envelope);
  });
}
