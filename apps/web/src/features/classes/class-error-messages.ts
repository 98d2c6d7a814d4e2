import { isHttpError } from '../../lib/http-error.ts';
import { CLASS_TEXTS } from './texts.ts';

/**
 * The texts of the error catalogue (product-spec section 8) for the class actions. Image rejections (413,
 * 415) and role failures (418: already enrolled, own class) show the server's Korean explanation, which says
 * what to fix; the catalogue's generic text would not.
 */
function serverMessage(error: unknown, fallback: string): string {
  return isHttpError(error) && error.messageKor ? error.messageKor : fallback;
}

export function enrollErrorMessage(error: unknown): string {
  if (isHttpError(error, 401)) return CLASS_TEXTS.noPermission;
  if (isHttpError(error, 400, 418)) return serverMessage(error, CLASS_TEXTS.info.enrollFailed);
  if (isHttpError(error)) return CLASS_TEXTS.unknownError;
  return CLASS_TEXTS.info.enrollFailed;
}

export function createErrorMessage(error: unknown): string {
  if (isHttpError(error, 401)) return CLASS_TEXTS.noPermission;
  if (isHttpError(error, 400, 413, 415)) return serverMessage(error, CLASS_TEXTS.form.createFailed);
  if (isHttpError(error) && error.status !== 0) return CLASS_TEXTS.unknownError;
  return CLASS_TEXTS.form.createFailed;
}

export function editErrorMessage(error: unknown): string {
  if (isHttpError(error, 413, 415)) return serverMessage(error, CLASS_TEXTS.form.editFailed);
  // An answer other than 200 is a failed edit; no answer at all (network) is an error during the edit.
  if (isHttpError(error) && error.status !== 0) return CLASS_TEXTS.form.editFailed;
  return CLASS_TEXTS.form.editError;
}

/** The server's per-field messages (`invalid_fields`), for the form fields it names. */
export function invalidFieldsOf<F extends string>(error: unknown, fields: readonly F[]): Array<[F, string]> {
  if (!isHttpError(error)) return [];
  return Object.entries(error.invalidFields).filter((entry): entry is [F, string] =>
    (fields as readonly string[]).includes(entry[0]),
  );
}
