import { HttpError } from '../../lib/http-error.ts';
import { AUTH_TEXTS } from './texts.ts';

/**
 * The message for a failed sign-up (product-spec section 8): the server's own Korean explanation for a
 * rejected request (taken nickname, invalid field), 'sign-up failed' for other answers, 'error during
 * sign-up' when the server could not be reached, 'unknown error' otherwise.
 */
export function signUpErrorMessage(error: unknown): {
  message: string;
  fields: Readonly<Record<string, string>>;
} {
  if (error instanceof HttpError) {
    if (error.status === 0) return { message: AUTH_TEXTS.signUpError, fields: {} };
    if ((error.status === 400 || error.status === 409) && error.messageKor) {
      return { message: error.messageKor, fields: error.invalidFields };
    }
    return { message: AUTH_TEXTS.signUpFailed, fields: error.invalidFields };
  }
  if (error instanceof Error) return { message: AUTH_TEXTS.signUpError, fields: {} };
  return { message: AUTH_TEXTS.signUpUnknown, fields: {} };
}
