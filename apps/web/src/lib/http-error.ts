/** A failed API call: the HTTP status (0 when the server could not be reached) and the server's explanation. */
export class HttpError extends Error {
  readonly status: number;
  /** The error code of the envelope (`Unauthorized`, `Role Error`...), when the server sent one. */
  readonly code: string | null;
  /** The server's Korean message, safe to show to a person. */
  readonly messageKor: string | null;
  /** Validation failures: field name → Korean message. */
  readonly invalidFields: Readonly<Record<string, string>>;

  constructor(init: {
    status: number;
    code?: string | null;
    messageKor?: string | null;
    invalidFields?: Record<string, string>;
    message?: string;
  }) {
    super(init.message ?? `HTTP ${init.status}${init.code ? ` ${init.code}` : ''}`);
    this.name = 'HttpError';
    this.status = init.status;
    this.code = init.code ?? null;
    this.messageKor = init.messageKor ?? null;
    this.invalidFields = init.invalidFields ?? {};
  }
}

/** True when `error` is an HttpError with one of the given statuses. */
export function isHttpError(error: unknown, ...statuses: number[]): error is HttpError {
  return error instanceof HttpError && (statuses.length === 0 || statuses.includes(error.status));
}
