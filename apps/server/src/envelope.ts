import type { Envelope } from '@sea/contract/envelope';

/** The success envelope of api.md 1.1; `data` defaults to the string "success". */
export function ok<T = 'success'>(
  data: T,
  kor = '요청을 처리했어요.',
  eng = 'OK',
  status = 200,
): Envelope<T> {
  return { status, message_kor: kor, message_eng: eng, data, timestamp: Date.now() };
}

/** A success envelope without a payload. */
export function done(kor = '요청을 처리했어요.', eng = 'OK'): Envelope<'success'> {
  return ok('success' as const, kor, eng);
}
