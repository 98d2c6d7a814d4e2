import { z } from 'zod';

/**
 * The success envelope of the original API spec, section 1.1. `data` is `"success"` when a route has no
 * payload.
 */
export type Envelope<T> = {
  status: number;
  message_kor: string;
  message_eng: string;
  data: T;
  timestamp: number;
};

/** The error codes of the original API spec section 1.1, one per status. */
export const ERROR_CODES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  418: 'Role Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;

export type ErrorStatus = keyof typeof ERROR_CODES;

/** The error envelope: every 4xx and 5xx answer of a route that uses envelopes. */
export const ErrorEnvelopeSchema = z.object({
  status: z.number().int(),
  message_kor: z.string(),
  message_eng: z.string(),
  error: z.string(),
  data: z.literal('error'),
  timestamp: z.number(),
  /** Validation failures only: field name → Korean message. */
  invalid_fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
