import { z } from 'zod';
import { ErrorEnvelopeSchema, type Envelope, type ErrorStatus } from '@sea/contract/envelope';

/** The success envelope of the original API spec 1.1; `data` defaults to the string "success". */
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

/** The zod schema of a success envelope around `data`, for route documentation. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.number().int(),
    message_kor: z.string(),
    message_eng: z.string(),
    data,
    timestamp: z.number(),
  });
}

/** The success envelope without a payload (`data: "success"`). */
export const DoneSchema = envelopeSchema(z.literal('success'));

/** Documents the error envelope for the given statuses. */
export function errorResponses(...statuses: ErrorStatus[]): Record<number, typeof ErrorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelopeSchema]));
}
