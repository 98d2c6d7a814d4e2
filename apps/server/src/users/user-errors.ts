import type { HttpError } from '../errors.ts';
import { conflict } from '../errors.ts';
import { uniqueViolation } from './unique-violation.ts';

export function alreadyRegistered(): HttpError {
  return conflict('이미 가입된 사용자예요.', 'This account is already registered.');
}

export function nicknameTaken(): HttpError {
  return conflict('이미 사용 중인 닉네임이에요.', 'The nickname is already taken.');
}

export function emailTaken(): HttpError {
  return conflict('이미 사용 중인 이메일이에요.', 'The e-mail address is already taken.');
}

/** Turns a unique violation on `users` into its 409; any other error is returned as it is. */
export function userConflict(error: unknown): unknown {
  switch (uniqueViolation(error)) {
    case null:
      return error;
    case 'users_nickname_key':
      return nicknameTaken();
    case 'users_email_key':
      return emailTaken();
    default:
      // The primary key: the same account signed up twice at once.
      return alreadyRegistered();
  }
}
