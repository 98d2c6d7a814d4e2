import { ERROR_CODES, type ErrorStatus } from '@sea/contract/envelope';

/**
 * An error that becomes an error envelope (the original API spec, 1.1). Domain code throws these through the
 * helpers below; the one error handler (plugins/errors.ts) turns them into responses.
 */
export class HttpError extends Error {
  readonly status: ErrorStatus;
  readonly messageKor: string;
  readonly messageEng: string;
  readonly invalidFields: Record<string, string> | undefined;

  constructor(status: ErrorStatus, kor: string, eng: string, invalidFields?: Record<string, string>) {
    super(eng);
    this.name = 'HttpError';
    this.status = status;
    this.messageKor = kor;
    this.messageEng = eng;
    this.invalidFields = invalidFields;
  }

  /** The short stable code of the envelope's `error` field. */
  get code(): string {
    return ERROR_CODES[this.status];
  }
}

/** Things that can be missing, with their Korean and English names. */
const THINGS = {
  class: ['강의를', 'Class'],
  user: ['사용자를', 'User'],
  category: ['카테고리를', 'Category'],
  schedule: ['일정을', 'Schedule'],
  review: ['수강평을', 'Review'],
  path: ['요청한 주소를', 'Path'],
  file: ['파일을', 'File'],
  session: ['라이브 수업을', 'Live session'],
  material: ['자료를', 'Material'],
} as const;
export type Thing = keyof typeof THINGS;

export function notFound(thing: Thing): HttpError {
  const [kor, eng] = THINGS[thing];
  return new HttpError(404, `${kor} 찾을 수 없어요.`, `${eng} not found.`);
}

export function roleError(
  kor = '이 작업을 할 권한이 없어요.',
  eng = 'You do not have the role needed for this.',
): HttpError {
  return new HttpError(418, kor, eng);
}

export function conflict(kor: string, eng: string): HttpError {
  return new HttpError(409, kor, eng);
}

export function badRequest(
  kor = '요청이 올바르지 않아요.',
  eng = 'Bad request.',
  invalidFields?: Record<string, string>,
): HttpError {
  return new HttpError(400, kor, eng, invalidFields);
}

/** A validation failure: field name → Korean message. */
export function invalid(invalidFields: Record<string, string>): HttpError {
  return badRequest('입력값을 확인해 주세요.', 'Validation failed.', invalidFields);
}

export function unauthorized(
  kor = '로그인이 필요해요.',
  eng = 'A valid access token is required.',
): HttpError {
  return new HttpError(401, kor, eng);
}

/** A signed link that is expired or altered (replay files). */
export function forbidden(
  kor = '링크가 만료되었거나 올바르지 않아요. 페이지를 새로 고쳐 주세요.',
  eng = 'The link has expired or is invalid.',
): HttpError {
  return new HttpError(403, kor, eng);
}

export function payloadTooLarge(): HttpError {
  return new HttpError(413, '파일은 5MB 이하만 올릴 수 있어요.', 'The upload is larger than 5 MB.');
}

export function unsupportedMediaType(): HttpError {
  return new HttpError(415, 'JPG 또는 PNG 이미지만 올릴 수 있어요.', 'Only JPEG or PNG images are accepted.');
}

export function tooManyRequests(): HttpError {
  return new HttpError(429, '요청이 너무 많아요. 잠시 후 다시 시도해 주세요.', 'Too many requests.');
}

/** Seconds a client is asked to wait (`Retry-After`) when a dependency such as the database is away. */
export const RETRY_AFTER_SECONDS = 5;

export function serviceUnavailable(): HttpError {
  return new HttpError(
    503,
    '서비스를 잠시 이용할 수 없어요. 잠시 후 다시 시도해 주세요.',
    'The service is temporarily unavailable.',
  );
}
